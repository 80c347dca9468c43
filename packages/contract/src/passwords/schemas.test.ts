import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULES, passwordRulesSchema, passwordRulesUpdateSchema } from './rules.ts';
import { passwordResetRequestSchema, RESET_TYPES, setPasswordRequestSchema } from './schemas.ts';

const accepts = (body: unknown) => setPasswordRequestSchema.safeParse(body).success;

describe('set password request (spec1 §7: {currentPassword, newPassword} or {resetToken, resetType, newPassword})', () => {
  it('accepts the three modes', () => {
    expect(accepts({ currentPassword: 'a', newPassword: 'b' })).toBe(true);
    expect(RESET_TYPES).toEqual(['just_reset', 'registration']);
    for (const resetType of RESET_TYPES) {
      expect(accepts({ resetToken: 't', resetType, newPassword: 'b' }), resetType).toBe(true);
    }
  });

  it('refuses an unknown resetType', () => {
    for (const resetType of ['bogus', 'currentPassword', 'JUST_RESET', '', null]) {
      expect(accepts({ resetToken: 't', resetType, newPassword: 'b' }), String(resetType)).toBe(false);
    }
    expect(accepts({ resetToken: 't', newPassword: 'b' })).toBe(false);
  });

  it('refuses unknown fields in either mode, and a mix of the two modes', () => {
    expect(accepts({ currentPassword: 'a', newPassword: 'b', admin: true })).toBe(false);
    expect(accepts({ resetToken: 't', resetType: 'just_reset', newPassword: 'b', userId: 1 })).toBe(false);
    expect(
      accepts({ currentPassword: 'a', resetToken: 't', resetType: 'just_reset', newPassword: 'b' }),
    ).toBe(false);
  });

  it('requires the current password or the token, and the new password', () => {
    expect(accepts({ currentPassword: '', newPassword: 'b' })).toBe(false);
    expect(accepts({ currentPassword: 'a' })).toBe(false);
    expect(accepts({ resetToken: '', resetType: 'registration', newPassword: 'b' })).toBe(false);
    expect(accepts({ resetToken: 't', resetType: 'registration' })).toBe(false);
    expect(accepts({ currentPassword: 'a', newPassword: 7 })).toBe(false);
  });
});

describe('password reset request and password rules bodies', () => {
  it('takes a user name and nothing else', () => {
    expect(passwordResetRequestSchema.safeParse({ username: 'editor' }).success).toBe(true);
    expect(passwordResetRequestSchema.safeParse({ username: '' }).success).toBe(false);
    expect(passwordResetRequestSchema.safeParse({ username: 'editor', email: 'x@y.z' }).success).toBe(false);
  });

  it('takes the six rules, each {enabled, value}, and refuses unknown rules', () => {
    expect(passwordRulesSchema.parse(DEFAULT_PASSWORD_RULES)).toEqual(DEFAULT_PASSWORD_RULES);
    expect(
      passwordRulesSchema.safeParse({
        ...DEFAULT_PASSWORD_RULES,
        max_length: DEFAULT_PASSWORD_RULES.min_length,
      }).success,
    ).toBe(false);
    expect(passwordRulesUpdateSchema.safeParse({ min_length: { enabled: true, value: 12 } }).success).toBe(
      true,
    );
    expect(passwordRulesUpdateSchema.safeParse({ min_length: { enabled: true, value: -1 } }).success).toBe(
      false,
    );
    expect(passwordRulesUpdateSchema.safeParse({ no_such_rule: { enabled: true, value: 1 } }).success).toBe(
      false,
    );
  });
});
