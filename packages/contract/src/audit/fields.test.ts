import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_FIELDS_MAX,
  AUDIT_VALUE_MAX,
  auditFieldsOf,
  isSecretField,
  scrubAuditValue,
} from './fields.ts';

describe('what an audit row keeps of a body (issue 33: field names, values up to 200, secrets never)', () => {
  it('takes names of secrets however they are spelled', () => {
    for (const name of [
      'password',
      'newPassword',
      'current_password',
      'mfaCode',
      'recoveryCode',
      'token',
      'resetToken',
      'secret',
      'clientsecret',
      'secretAccessKey',
      'accessKeyId',
      'apikey',
      'X-Api-Key',
      'privateKey',
      'credentials',
      'passphrase',
      'sessionId',
      'authorization',
      'signature',
    ])
      expect(isSecretField(name), name).toBe(true);
    for (const name of [
      'name',
      'username',
      'email',
      'description',
      'url',
      'keyboard',
      'disconnectmessage',
      'scope',
    ])
      expect(isSecretField(name), name).toBe(false);
  });

  it('names every field, one level down too, and keeps plain values that are not secrets', () => {
    expect(
      auditFieldsOf({
        name: 'Cut 1',
        enabled: true,
        limit: 5,
        none: null,
        ids: [1, 2],
        options: { host: 'ftp.example.com', password: 'hunter22' },
        credentials: { user: 'u', other: 'x' },
        items: [{ password: 'p' }],
        deep: { inner: { password: 'p' } },
        empty: {},
      }),
    ).toEqual([
      { name: 'name', value: 'Cut 1', secret: false },
      { name: 'enabled', value: 'true', secret: false },
      { name: 'limit', value: '5', secret: false },
      { name: 'none', value: 'null', secret: false },
      { name: 'ids', value: '[1,2]', secret: false },
      { name: 'options.host', value: 'ftp.example.com', secret: false },
      { name: 'options.password', value: null, secret: true },
      { name: 'credentials.user', value: null, secret: true },
      { name: 'credentials.other', value: null, secret: true },
      { name: 'items', value: null, secret: false },
      { name: 'deep.inner', value: null, secret: false },
      { name: 'empty', value: null, secret: false },
    ]);
  });

  it('cuts values at 200 characters and names no field of a body that is not an object', () => {
    const [field] = auditFieldsOf({ description: 'x'.repeat(1000) });
    expect(field?.value).toHaveLength(AUDIT_VALUE_MAX);
    for (const body of [undefined, null, 'a,b\n1,2', [1, 2], 7]) expect(auditFieldsOf(body)).toEqual([]);
  });

  it('names at most 50 fields and says there were more', () => {
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`f${i}`, i]));
    const fields = auditFieldsOf(many);
    expect(fields).toHaveLength(AUDIT_FIELDS_MAX + 1);
    expect(fields.at(-1)?.name).toBe('…');
    expect(
      auditFieldsOf(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, i]))),
    ).toHaveLength(50);
  });

  it('takes the secrets out of values that carry them in plain sight', () => {
    expect(scrubAuditValue('ftp://ann:hunter22@ftp.example.com/in')).toBe(
      'ftp://ann:[redacted]@ftp.example.com/in',
    );
    expect(scrubAuditValue('https://cdn.example.com/a.mp4?X-Amz-Signature=abc&x=1')).toBe(
      'https://cdn.example.com/a.mp4?[redacted]',
    );
    expect(scrubAuditValue('Bearer abc.def')).toBe('Bearer [redacted]');
    expect(scrubAuditValue('token mca_AbCdEf0123456789 here')).toBe('token [redacted] here');
    expect(scrubAuditValue('whsec_c2VjcmV0')).toBe('[redacted]');
    expect(scrubAuditValue('https://example.com/hooks')).toBe('https://example.com/hooks');
  });

  it('never keeps the value of a field whose name is a secret, at either level (property)', () => {
    const secretName = fc.constantFrom(
      'password',
      'newPassword',
      'mfaCode',
      'token',
      'apiKey',
      'clientSecret',
    );
    const plainName = fc.stringMatching(/^[a-z]{1,8}$/).filter((n) => !isSecretField(n));
    const value = fc.string({ minLength: 12, maxLength: 40 }).map((s) => `S3CRET-${s}`);
    fc.assert(
      fc.property(secretName, plainName, value, fc.boolean(), (secret, plain, hidden, nested) => {
        const body = nested ? { [plain]: { [secret]: hidden } } : { [secret]: hidden, [plain]: 'shown' };
        expect(JSON.stringify(auditFieldsOf(body))).not.toContain('S3CRET-');
      }),
    );
  });
});
