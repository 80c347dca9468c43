import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ingestQueueQuerySchema } from '../ingest/ingest.ts';
import { idParamSchema } from './envelope.ts';
import { INT4_MAX, idSchema, idTextSchema, int4Schema } from './input.ts';

describe('ids and integers bounded to their PostgreSQL columns (DESIGN "HTTP conventions")', () => {
  it('accepts ids from 1 to the largest int4 and refuses the rest', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: INT4_MAX }), (id) => {
        expect(idSchema.parse(id)).toBe(id);
        expect(idTextSchema.parse(String(id))).toBe(id);
      }),
    );
    for (const bad of [0, -1, 1.5, INT4_MAX + 1, 99_999_999_999, 1e20])
      expect(idSchema.safeParse(bad).success, String(bad)).toBe(false);
    for (const bad of ['0', 'abc', '2147483648', '99999999999', '99999999999999999999'])
      expect(idTextSchema.safeParse(bad).success, bad).toBe(false);
    expect(idParamSchema.safeParse({ id: '99999999999' }).success).toBe(false);
  });

  it('bounds other integer columns to int4', () => {
    expect(int4Schema.safeParse(-(2 ** 31)).success).toBe(true);
    expect(int4Schema.safeParse(-(2 ** 31) - 1).success).toBe(false);
    expect(int4Schema.safeParse(INT4_MAX + 1).success).toBe(false);
  });

  it('refuses an endpoint id past int4 in the queue filter edgesEndpointIds', () => {
    expect(ingestQueueQuerySchema.safeParse({ edgesEndpointIds: `1,${INT4_MAX}` }).success).toBe(true);
    expect(ingestQueueQuerySchema.safeParse({ edgesEndpointIds: '99999999999999999999' }).success).toBe(
      false,
    );
    expect(ingestQueueQuerySchema.safeParse({ edgesEndpointIds: `1,${INT4_MAX + 1}` }).success).toBe(false);
  });
});
