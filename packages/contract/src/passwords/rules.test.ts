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
  passwordTooltipOffset,
} from './rules.ts';

/** Rules with only `name` enabled, at `value`. */
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

const COUNTED_RULES = ['min_length', 'min_lowercase_num', 'min_uppercase_num', 'min_digit_num'] as const;

const ruleArb = fc.record({ enabled: fc.boolean(), value: fc.integer({ min: 0, max: 20 }) });
const rulesArb: fc.Arbitrary<PasswordRules> = fc.record(
  Object.fromEntries(PASSWORD_RULE_NAMES.map((n) => [n, ruleArb])) as Record<
    PasswordRuleName,
    typeof ruleArb
  >,
);
const fromChars = (chars: string, maxLength = 8) => fc.string({ unit: fc.constantFrom(...chars), maxLength });

describe('password rules (spec1 §5), each enabled alone', () => {
  it('min_length counts characters', () => {
    expect(passes('abcdefgh', only('min_length', 8))).toBe(true);
    expect(passes('abcdefg', only('min_length', 8))).toBe(false);
    expect(passes('', only('min_length', 0))).toBe(true);
  });

  it('min_length counts a character outside the basic plane once', () => {
    expect(passes('ab😀', only('min_length', 3))).toBe(true);
    expect(passes('a😀', only('min_length', 3))).toBe(false);
  });

  it('min_lowercase_num, min_uppercase_num and min_digit_num count their kind of character', () => {
    expect(passes('ABab', only('min_lowercase_num', 2))).toBe(true);
    expect(passes('ABCa', only('min_lowercase_num', 2))).toBe(false);
    expect(passes('abAB', only('min_uppercase_num', 2))).toBe(true);
    expect(passes('abcA', only('min_uppercase_num', 2))).toBe(false);
    expect(passes('a12', only('min_digit_num', 2))).toBe(true);
    expect(passes('a1b', only('min_digit_num', 2))).toBe(false);
  });

  it('counts accented letters by their case', () => {
    expect(passes('éà', only('min_lowercase_num', 2))).toBe(true);
    expect(passes('ÉÀ', only('min_uppercase_num', 2))).toBe(true);
    expect(passes('ÉÀ', only('min_lowercase_num', 1))).toBe(false);
  });

  it('does not count symbols as letters or digits', () => {
    const symbols = '!@#$%^&*() _-+=';
    expect(passes(symbols, only('min_lowercase_num', 1))).toBe(false);
    expect(passes(symbols, only('min_uppercase_num', 1))).toBe(false);
    expect(passes(symbols, only('min_digit_num', 1))).toBe(false);
    expect(passes(symbols, only('min_length', symbols.length))).toBe(true);
  });

  it('does_not_contain_username ignores case', () => {
    expect(passes('xxEditorxx', only('does_not_contain_username'), 'editor')).toBe(false);
    expect(passes('xxeditorxx', only('does_not_contain_username'), 'EDITOR')).toBe(false);
    expect(passes('editor', only('does_not_contain_username'), 'editor')).toBe(false);
    expect(passes('something-else', only('does_not_contain_username'), 'editor')).toBe(true);
    expect(passes('edito', only('does_not_contain_username'), 'editor')).toBe(true);
  });

  it('does_not_contain_username holds for a blank user name', () => {
    expect(passes('anything', only('does_not_contain_username'), '')).toBe(true);
    expect(passes('any thing', only('does_not_contain_username'), '  ')).toBe(true);
  });

  it('not_empty refuses the empty password', () => {
    expect(passes('', only('not_empty'))).toBe(false);
    expect(passes('x', only('not_empty'))).toBe(true);
    expect(passes(' ', only('not_empty'))).toBe(true);
  });

  it('reports the rule, whether it passed and its message', () => {
    expect(checkPassword('abc', 'u', only('min_length', 8))).toEqual([
      { rule: 'min_length', passed: false, message: 'At least 8 characters' },
    ]);
    expect(checkPassword('abc', 'u', only('min_digit_num', 1))).toEqual([
      { rule: 'min_digit_num', passed: false, message: 'At least 1 digit' },
    ]);
  });
});

describe('password rules (spec1 §5), enabled individually', () => {
  it('ignores disabled rules', () => {
    expect(checkPassword('', 'editor', none())).toEqual([]);
    expect(passes('', none())).toBe(true);
    const lengthOff = structuredClone(DEFAULT_PASSWORD_RULES);
    lengthOff.min_length.enabled = false;
    expect(passes('aB1', lengthOff)).toBe(true);
    expect(passes('aB1', DEFAULT_PASSWORD_RULES)).toBe(false);
  });

  it('reports the enabled rules in the spec order', () => {
    expect(checkPassword('x', 'u', DEFAULT_PASSWORD_RULES).map((o) => o.rule)).toEqual([
      ...PASSWORD_RULE_NAMES,
    ]);
  });

  it('checks exactly the enabled rules, each as it would alone', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ maxLength: 4 }), rulesArb, (password, username, rules) => {
        const outcomes = checkPassword(password, username, rules);
        const enabled = PASSWORD_RULE_NAMES.filter((name) => rules[name].enabled);
        expect(outcomes.map((o) => o.rule)).toEqual(enabled);
        for (const outcome of outcomes) {
          const alone = checkPassword(password, username, only(outcome.rule, rules[outcome.rule].value));
          expect(alone).toEqual([outcome]);
        }
        expect(failedRules(password, username, rules)).toEqual(outcomes.filter((o) => !o.passed));
      }),
    );
  });
});

describe('password rules, properties', () => {
  it('passes every default rule for a password built to meet them', () => {
    const atLeastOne = (chars: string) =>
      fc.string({ unit: fc.constantFrom(...chars), minLength: 1, maxLength: 6 });
    const password = fc
      .tuple(
        atLeastOne('abcdefghijklmnopqrstuvwxyz'),
        atLeastOne('ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
        atLeastOne('0123456789'),
        fromChars('abcXYZ019!#-_ ', 8),
      )
      .map((parts) => [...parts.join('')])
      .filter((chars) => chars.length >= DEFAULT_PASSWORD_RULES.min_length.value)
      .chain((chars) => fc.shuffledSubarray(chars, { minLength: chars.length }))
      .map((chars) => chars.join(''));
    const username = fc.string({ minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(password, username, (p, u) => {
        fc.pre(u.trim() === '' || !p.toLowerCase().includes(u.trim().toLowerCase()));
        expect(failedRules(p, u, DEFAULT_PASSWORD_RULES)).toEqual([]);
      }),
    );
  });

  it('passes the counted rules for a password with at least the required counts', () => {
    const counts = fc.record({
      lower: fc.integer({ min: 0, max: 6 }),
      upper: fc.integer({ min: 0, max: 6 }),
      digits: fc.integer({ min: 0, max: 6 }),
      extra: fc.integer({ min: 0, max: 6 }),
    });
    fc.assert(
      fc.property(counts, (n) => {
        const password = `${'q'.repeat(n.lower)}${'Q'.repeat(n.upper)}${'7'.repeat(n.digits)}${'-'.repeat(n.extra)}`;
        const rules = structuredClone(DEFAULT_PASSWORD_RULES);
        rules.min_length.value = [...password].length;
        rules.min_lowercase_num.value = n.lower;
        rules.min_uppercase_num.value = n.upper;
        rules.min_digit_num.value = n.digits;
        rules.not_empty.enabled = password.length > 0;
        expect(failedRules(password, '@', rules)).toEqual([]);
        // One more of any kind than there is fails exactly that rule.
        for (const rule of COUNTED_RULES) {
          const stricter = structuredClone(rules);
          stricter[rule].value += 1;
          expect(failedRules(password, '@', stricter).map((o) => o.rule)).toEqual([rule]);
        }
      }),
    );
  });

  it('fails does_not_contain_username whenever the password holds the user name, in any case', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string(), (before, username, after) => {
        fc.pre(username.trim() !== '');
        const password = `${before}${username.trim().toUpperCase()}${after}`;
        expect(failedRules(password, username, only('does_not_contain_username')).map((o) => o.rule)).toEqual(
          ['does_not_contain_username'],
        );
      }),
    );
  });

  it('never passes more counted rules after removing a character', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, unit: fc.constantFrom(...'aZ9-é😀') }),
        fc.nat(),
        fc.constantFrom(...COUNTED_RULES),
        fc.integer({ min: 0, max: 12 }),
        (password, at, rule, value) => {
          const chars = [...password];
          const index = at % chars.length;
          const shorter = [...chars.slice(0, index), ...chars.slice(index + 1)].join('');
          const rules = only(rule, value);
          expect(!passes(password, rules) && passes(shorter, rules)).toBe(false);
        },
      ),
    );
  });

  it('never fails more counted rules after adding a character', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ minLength: 1, maxLength: 1 }),
        rulesArb,
        (password, added, rules) => {
          const counted = structuredClone(rules);
          counted.does_not_contain_username.enabled = false;
          counted.not_empty.enabled = false;
          const before = failedRules(password, 'user', counted).length;
          expect(failedRules(`${password}${added}`, 'user', counted).length).toBeLessThanOrEqual(before);
        },
      ),
    );
  });
});

describe('password strength (spec1 §5)', () => {
  it('is unsafe under 50% with a bar of at least 20, moderate under 100%, safe at 100%', () => {
    const rules = DEFAULT_PASSWORD_RULES;
    expect(passwordStrength('', 'editor', only('min_length', 8))).toEqual({
      share: 0,
      level: 'unsafe',
      bar: 20,
    });
    expect(passwordStrength('', 'editor', rules)).toEqual({ share: 1 / 6, level: 'unsafe', bar: 20 });
    expect(passwordStrength('abcdefgh', 'editor', rules).level).toBe('moderate');
    expect(passwordStrength('Abcdefg1', 'editor', rules)).toEqual({ level: 'safe', share: 1, bar: 100 });
  });

  it('keeps the bar at the share once above 20%, and 50% exactly is moderate', () => {
    // Default rules (6): '!!' passes does_not_contain_username and not_empty → 2 of 6.
    expect(passwordStrength('!!', 'editor', DEFAULT_PASSWORD_RULES)).toEqual({
      share: 2 / 6,
      level: 'unsafe',
      bar: 33,
    });
    // 'a' passes min_lowercase_num, does_not_contain_username, not_empty → 3 of 6.
    expect(passwordStrength('a', 'editor', DEFAULT_PASSWORD_RULES)).toEqual({
      share: 0.5,
      level: 'moderate',
      bar: 50,
    });
    // 'abcdefg1' fails only min_uppercase_num → 5 of 6.
    expect(passwordStrength('abcdefg1', 'editor', DEFAULT_PASSWORD_RULES)).toEqual({
      share: 5 / 6,
      level: 'moderate',
      bar: 83,
    });
    // The user name counts against it: 'EDITOR' passes only min_uppercase_num and not_empty.
    expect(passwordStrength('EDITOR', 'editor', DEFAULT_PASSWORD_RULES)).toEqual({
      share: 2 / 6,
      level: 'unsafe',
      bar: 33,
    });
    // '' with a blank user name passes only does_not_contain_username: 1 of 6, under the bar's minimum.
    expect(passwordStrength('', '', DEFAULT_PASSWORD_RULES)).toEqual({
      share: 1 / 6,
      level: 'unsafe',
      bar: 20,
    });
  });

  it('counts 50% when no rule is enabled', () => {
    expect(passwordStrength('anything', 'editor', none())).toEqual({
      share: 0.5,
      level: 'moderate',
      bar: 50,
    });
    expect(passwordStrength('', '', none())).toEqual({ share: 0.5, level: 'moderate', bar: 50 });
  });

  it('keeps the share in [0, 1] and the bar in [20, 100] for any password and rules', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), rulesArb, (password, username, rules) => {
        const { share, bar } = passwordStrength(password, username, rules);
        expect(share).toBeGreaterThanOrEqual(0);
        expect(share).toBeLessThanOrEqual(1);
        expect(bar).toBeGreaterThanOrEqual(20);
        expect(bar).toBeLessThanOrEqual(100);
      }),
    );
  });

  it('is the share of passed enabled rules, its level and bar following the spec thresholds', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ maxLength: 4 }), rulesArb, (password, username, rules) => {
        const outcomes = checkPassword(password, username, rules);
        const { share, level, bar } = passwordStrength(password, username, rules);
        const passed = outcomes.filter((o) => o.passed).length;
        expect(share).toBe(outcomes.length === 0 ? 0.5 : passed / outcomes.length);
        expect(level === 'safe').toBe(outcomes.length > 0 && passed === outcomes.length);
        expect(level === 'unsafe').toBe(share < 0.5);
        expect(bar).toBe(share < 0.2 ? 20 : Math.round(share * 100));
      }),
    );
  });
});

describe('password rules tooltip (spec1 §9)', () => {
  it('sits at (-50, -50) under 1200 px wide, else at (290, 145)', () => {
    expect(passwordTooltipOffset(1199)).toEqual({ x: -50, y: -50 });
    expect(passwordTooltipOffset(1200)).toEqual({ x: 290, y: 145 });
  });
});
