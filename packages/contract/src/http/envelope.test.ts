import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setPasswordRequestSchema } from '../passwords/schemas.ts';
import { collectionOf, resultsOf } from './envelope.ts';

describe('envelope schemas', () => {
  it('parse results and collections with total and channel', () => {
    expect(resultsOf(z.number()).parse({ results: 3 })).toEqual({ results: 3 });
    const collection = collectionOf(z.object({ id: z.number() }));
    expect(collection.parse({ results: [{ id: 1 }], total: 9, channel: 'c' }).total).toBe(9);
    expect(collection.safeParse({ results: [{ id: 1 }], total: 9 }).success).toBe(false);
  });
});

describe('set password request', () => {
  it('accepts the three modes', () => {
    expect(setPasswordRequestSchema.safeParse({ currentPassword: 'a', newPassword: 'b' }).success).toBe(true);
    for (const resetType of ['just_reset', 'registration']) {
      expect(
        setPasswordRequestSchema.safeParse({ resetToken: 't', resetType, newPassword: 'b' }).success,
      ).toBe(true);
    }
  });

  it('refuses an unknown resetType and unknown fields', () => {
    expect(
      setPasswordRequestSchema.safeParse({ resetToken: 't', resetType: 'bogus', newPassword: 'b' }).success,
    ).toBe(false);
    expect(
      setPasswordRequestSchema.safeParse({ currentPassword: 'a', newPassword: 'b', admin: true }).success,
    ).toBe(false);
  });
});
