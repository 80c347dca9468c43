import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONCURRENT_USER_LIMIT_MAX,
  concurrentUserLimitOptions,
  DEFAULT_MAX_VIDEO,
  maxVideoResolution,
  mayEnterAccount,
  parseResolution,
} from './rules.ts';
import { accountCreateSchema, accountUpdateSchema } from './schemas.ts';

describe('max video resolution (spec1 §5)', () => {
  it('takes the largest pixel area among WxH values', () => {
    expect(maxVideoResolution(['1280x720', '1920x1080', '1080x1920x'])).toBe('1920x1080');
    expect(maxVideoResolution(['1080x1920', '1920x1080'])).toBe('1080x1920');
  });

  it('ignores values that are not WxH and never goes below 640x360', () => {
    expect(maxVideoResolution([])).toBe(DEFAULT_MAX_VIDEO);
    expect(maxVideoResolution(['HD', null, undefined, '320x240', ''])).toBe('640x360');
    expect(parseResolution(' 1920x1080 ')).toEqual({ width: 1920, height: 1080 });
    expect(parseResolution('1920 x 1080')).toBeUndefined();
  });

  it('answers one of its inputs or the default, with the largest area (property)', () => {
    const resolution = fc
      .tuple(fc.integer({ min: 1, max: 8000 }), fc.integer({ min: 1, max: 8000 }))
      .map(([w, h]) => `${w}x${h}`);
    fc.assert(
      fc.property(fc.array(fc.oneof(resolution, fc.string())), (values) => {
        const best = maxVideoResolution(values);
        expect([...values, DEFAULT_MAX_VIDEO]).toContain(best);
        const area = (v: string) => {
          const r = parseResolution(v);
          return r ? r.width * r.height : 0;
        };
        for (const value of values)
          expect(area(best)).toBeGreaterThanOrEqual(Math.min(area(value), area(best)));
        expect(area(best)).toBe(Math.max(640 * 360, ...values.map(area)));
      }),
    );
  });
});

describe('concurrent user limit (spec1 §9)', () => {
  it("offers No limit, 'No users - lock access', '1 user', then 2 to 50 users", () => {
    const options = concurrentUserLimitOptions();
    expect(options.slice(0, 4)).toEqual([
      { value: null, label: 'No limit' },
      { value: 0, label: 'No users - lock access' },
      { value: 1, label: '1 user' },
      { value: 2, label: '2 users' },
    ]);
    expect(options.at(-1)).toEqual({ value: CONCURRENT_USER_LIMIT_MAX, label: '50 users' });
    expect(options).toHaveLength(52);
  });

  it('lets a user in while fewer than the limit are inside, and always one already inside', () => {
    expect(mayEnterAccount(null, 1000, false)).toBe(true);
    expect(mayEnterAccount(0, 0, false)).toBe(false);
    expect(mayEnterAccount(2, 1, false)).toBe(true);
    expect(mayEnterAccount(2, 2, false)).toBe(false);
    expect(mayEnterAccount(2, 5, true)).toBe(true);
  });
});

describe('account form schemas (spec1 §5 limits)', () => {
  const fieldError = (body: unknown, field: string) => {
    const result = accountUpdateSchema.safeParse(body);
    return result.success ? undefined : result.error.issues.find((i) => i.path[0] === field)?.message;
  };

  it('requires contact name (max 50) and a contact email (max 60)', () => {
    expect(fieldError({ contactName: '' }, 'contactName')).toBe('This field is required');
    expect(fieldError({ contactName: 'x'.repeat(51) }, 'contactName')).toBe('At most 50 characters');
    expect(fieldError({ contactEmail: 'nope' }, 'contactEmail')).toBe('Please enter a valid email address');
    expect(fieldError({ contactEmail: `${'x'.repeat(50)}@example.com` }, 'contactEmail')).toBe(
      'At most 60 characters',
    );
    expect(fieldError({ contactCompany: 'x'.repeat(81) }, 'contactCompany')).toBe('At most 80 characters');
    expect(fieldError({ contactPhone: 'x'.repeat(41) }, 'contactPhone')).toBe('At most 40 characters');
    expect(fieldError({ billingId: 'x'.repeat(101) }, 'billingId')).toBe('At most 100 characters');
    expect(
      fieldError({ productionName: 'x'.repeat(100), department: 'x'.repeat(100) }, 'productionName'),
    ).toBe(undefined);
  });

  it('accepts create, clone, reserve and release bodies and refuses mixtures', () => {
    expect(accountCreateSchema.safeParse({ name: 'news', siteId: 1 }).success).toBe(true);
    expect(accountCreateSchema.safeParse({ name: 'news', cloneFrom: 2 }).success).toBe(true);
    expect(accountCreateSchema.safeParse({ reserveKey: true, name: 'news', cloneFrom: 2 }).success).toBe(
      true,
    );
    expect(accountCreateSchema.safeParse({ unreserveKey: true, name: 'news', cloneFrom: 2 }).success).toBe(
      true,
    );
    expect(accountCreateSchema.safeParse({ reserveKey: true, name: 'news' }).success).toBe(false);
    expect(accountCreateSchema.safeParse({ name: 'has space', siteId: 1 }).success).toBe(false);
  });
});
