import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkPassword,
  DEFAULT_PASSWORD_RULES,
  failedRules,
  PASSWORD_RULE_NAMES,
  type PasswordRuleName,
  type PasswordRules,
  passwordStrength,
} from './rules.ts';

const only = (name: PasswordRuleName, value = 0): PasswordRules => {
  const rules = structuredClone(DEFAULT_PASSWORD_RULES);
  for (const rule of PASSWORD_RULE_NAMES)
    rules[rule] = { enabled: rule === name, value: rule === name ? value : 0 };
  return rules;
};
const none = (): PasswordRules => {
  const rules = structuredClone(DEFAULT_PASSWORD_RULES);
  for (const rule of PASSWORD_RULE_NAMES) rules[rule].enabled = false;
  return rules;
};
const passes = (password: string, rules: PasswordRules, username = 'editor') =>
  failedRules(password, username, rules).length === 0;

describe('password rules (spec1 §5)', () => {
  it('min_length counts characters', () => {
    expect(passes('abcdefgh', only('min_length', 8))).toBe(true);
    expect(passes('abcdefg', only('min_length', 8))).toBe(false);
  });

  it('min_lowercase_num, min_uppercase_num and min_digit_num count their kind of character', () => {
    expect(passes('ABab', only('min_lowercase_num', 2))).toBe(true);
    expect(passes('ABCa', only('min_lowercase_num', 2))).toBe(false);
    expect(passes('abAB', only('min_uppercase_num', 2))).toBe(true);
    expect(passes('abcA', only('min_uppercase_num', 2))).toBe(false);
    expect(passes('a12', only('min_digit_num', 2))).toBe(true);
    expect(passes('a1b', only('min_digit_num', 2))).toBe(false);
  });

  it('does_not_contain_username ignores case', () => {
    expect(passes('xxEditorxx', only('does_not_contain_username'), 'editor')).toBe(false);
    expect(passes('something-else', only('does_not_contain_username'), 'editor')).toBe(true);
  });

  it('not_empty refuses the empty password', () => {
    expect(passes('', only('not_empty'))).toBe(false);
    expect(passes('x', only('not_empty'))).toBe(true);
  });

  it('ignores disabled rules', () => {
    expect(checkPassword('', 'editor', none())).toEqual([]);
    expect(passes('', none())).toBe(true);
  });

  it('reports the enabled rules in the spec order', () => {
    expect(checkPassword('x', 'u', DEFAULT_PASSWORD_RULES).map((o) => o.rule)).toEqual([
      ...PASSWORD_RULE_NAMES,
    ]);
  });
});

describe('password strength (spec1 §5)', () => {
  it('is unsafe under 50% with a bar of at least 20, moderate under 100%, safe at 100%', () => {
    const rules = DEFAULT_PASSWORD_RULES;
    expect(passwordStrength('', 'editor', rules)).toMatchObject({ level: 'unsafe', bar: 20 });
    expect(passwordStrength('abcdefgh', 'editor', rules).level).toBe('moderate');
    expect(passwordStrength('Abcdefg1', 'editor', rules)).toMatchObject({
      level: 'safe',
      share: 1,
      bar: 100,
    });
  });

  it('counts 50% when no rule is enabled', () => {
    expect(passwordStrength('anything', 'editor', none())).toMatchObject({ share: 0.5, level: 'moderate' });
  });

  it('keeps the share in [0, 1] and the bar in [20, 100] for any password and rules', () => {
    const ruleArb = fc.record({ enabled: fc.boolean(), value: fc.integer({ min: 0, max: 20 }) });
    const rulesArb = fc.record(
      Object.fromEntries(PASSWORD_RULE_NAMES.map((n) => [n, ruleArb])) as Record<
        PasswordRuleName,
        typeof ruleArb
      >,
    );
    fc.assert(
      fc.property(fc.string(), fc.string(), rulesArb, (password, username, rules) => {
        const { share, bar } = passwordStrength(password, username, rules);
        return share >= 0 && share <= 1 && bar >= 20 && bar <= 100;
      }),
    );
  });

  it('passes every default rule for a password built to meet them', () => {
    const lower = fc.string({
      unit: fc.constantFrom(...'abcdefghijkmnpqrstuvwxyz'),
      minLength: 1,
      maxLength: 6,
    });
    const upper = fc.string({
      unit: fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZ'),
      minLength: 1,
      maxLength: 6,
    });
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(lower, upper, digits, (l, u, d) => {
        const password = `${l}${u}${d}!!!!!!!!`;
        return passes(password, DEFAULT_PASSWORD_RULES, 'ZZZ-not-in-it-ZZZ');
      }),
    );
  });

  it('never passes more length rules after removing a character', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.integer({ min: 0, max: 30 }), (password, n) => {
        const rules = only('min_length', n);
        const shorter = [...password].slice(1).join('');
        return !(passes(shorter, rules) && !passes(password, rules));
      }),
    );
  });
});
