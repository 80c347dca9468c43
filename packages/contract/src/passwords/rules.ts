import { z } from 'zod';

export const PASSWORD_RULE_NAMES = [
  'min_length',
  'min_lowercase_num',
  'min_uppercase_num',
  'min_digit_num',
  'does_not_contain_username',
  'not_empty',
] as const;
export type PasswordRuleName = (typeof PASSWORD_RULE_NAMES)[number];

export const passwordRuleSchema = z.strictObject({
  enabled: z.boolean(),
  value: z.number().int().min(0).max(1000).describe('Count for the min_* rules; ignored by the others'),
});
export type PasswordRule = z.infer<typeof passwordRuleSchema>;

export const passwordRulesSchema = z.strictObject({
  min_length: passwordRuleSchema,
  min_lowercase_num: passwordRuleSchema,
  min_uppercase_num: passwordRuleSchema,
  min_digit_num: passwordRuleSchema,
  does_not_contain_username: passwordRuleSchema,
  not_empty: passwordRuleSchema,
});
export type PasswordRules = z.infer<typeof passwordRulesSchema>;

export const passwordRulesUpdateSchema = passwordRulesSchema.partial();

export const DEFAULT_PASSWORD_RULES: PasswordRules = {
  min_length: { enabled: true, value: 8 },
  min_lowercase_num: { enabled: true, value: 1 },
  min_uppercase_num: { enabled: true, value: 1 },
  min_digit_num: { enabled: true, value: 1 },
  does_not_contain_username: { enabled: true, value: 0 },
  not_empty: { enabled: true, value: 0 },
};

export const PASSWORD_RULE_MESSAGES: Record<PasswordRuleName, (value: number) => string> = {
  min_length: (n) => `At least ${n} characters`,
  min_lowercase_num: (n) => `At least ${n} lowercase letter${n === 1 ? '' : 's'}`,
  min_uppercase_num: (n) => `At least ${n} uppercase letter${n === 1 ? '' : 's'}`,
  min_digit_num: (n) => `At least ${n} digit${n === 1 ? '' : 's'}`,
  does_not_contain_username: () => 'Does not contain the user name',
  not_empty: () => 'Is not empty',
};

const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

export type RuleOutcome = { rule: PasswordRuleName; passed: boolean; message: string };

/** Checks a password against every enabled rule, in the spec's order. */
export const checkPassword = (password: string, username: string, rules: PasswordRules): RuleOutcome[] =>
  PASSWORD_RULE_NAMES.filter((name) => rules[name].enabled).map((name) => {
    const { value } = rules[name];
    const passed = (() => {
      switch (name) {
        case 'min_length':
          return [...password].length >= value;
        case 'min_lowercase_num':
          return count(password, /\p{Ll}/gu) >= value;
        case 'min_uppercase_num':
          return count(password, /\p{Lu}/gu) >= value;
        case 'min_digit_num':
          return count(password, /\p{Nd}/gu) >= value;
        case 'does_not_contain_username':
          return username.trim() === '' || !password.toLowerCase().includes(username.trim().toLowerCase());
        case 'not_empty':
          return password.length > 0;
      }
    })();
    return { rule: name, passed, message: PASSWORD_RULE_MESSAGES[name](value) };
  });

export const failedRules = (password: string, username: string, rules: PasswordRules) =>
  checkPassword(password, username, rules).filter((outcome) => !outcome.passed);

export type PasswordStrength = { share: number; level: 'unsafe' | 'moderate' | 'safe'; bar: number };

/** spec1 §5: share of passed rules; under 50% unsafe (bar at least 20), under 100% moderate, else safe; no rules = 50%. */
export const passwordStrength = (
  password: string,
  username: string,
  rules: PasswordRules,
): PasswordStrength => {
  const outcomes = checkPassword(password, username, rules);
  const share = outcomes.length === 0 ? 0.5 : outcomes.filter((o) => o.passed).length / outcomes.length;
  const level = share < 0.5 ? 'unsafe' : share < 1 ? 'moderate' : 'safe';
  return { share, level, bar: Math.max(20, Math.round(share * 100)) };
};

/** spec1 §9: the password rules tooltip sits at (-50, -50) from the field under 1200 px wide, else (290, 145). */
export const PASSWORD_TOOLTIP_NARROW_WIDTH = 1200;
export const passwordTooltipOffset = (viewportWidth: number) =>
  viewportWidth < PASSWORD_TOOLTIP_NARROW_WIDTH ? { x: -50, y: -50 } : { x: 290, y: 145 };
