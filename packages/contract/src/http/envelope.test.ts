import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  collectionOf,
  errorBodySchema,
  idParamSchema,
  MAX_PAGE_LIMIT,
  okSchema,
  pageQuerySchema,
  resultsOf,
} from './envelope.ts';

describe('success envelope (DESIGN.md, HTTP conventions)', () => {
  it('parses {results} around the payload schema', () => {
    expect(resultsOf(z.number()).parse({ results: 3 })).toEqual({ results: 3 });
    expect(resultsOf(z.number()).safeParse({ results: 'three' }).success).toBe(false);
    expect(resultsOf(z.number()).safeParse({ result: 3 }).success).toBe(false);
    expect(resultsOf(z.number()).safeParse(3).success).toBe(false);
    expect(okSchema.parse({ results: { ok: true } })).toEqual({ results: { ok: true } });
    expect(okSchema.safeParse({ results: { ok: false } }).success).toBe(false);
  });

  it('parses collections as {results: [...], total, channel}', () => {
    const collection = collectionOf(z.object({ id: z.number() }));
    const body = { results: [{ id: 1 }, { id: 2 }], total: 9, channel: 'account/3/users' };
    expect(collection.parse(body)).toEqual(body);
    expect(collection.parse({ results: [], total: 0, channel: 'c' })).toEqual({
      results: [],
      total: 0,
      channel: 'c',
    });
  });

  it('refuses a collection without total or channel, or with results not a list of items', () => {
    const collection = collectionOf(z.object({ id: z.number() }));
    const ok = { results: [{ id: 1 }], total: 9, channel: 'c' };
    expect(collection.safeParse({ results: ok.results, total: 9 }).success).toBe(false);
    expect(collection.safeParse({ results: ok.results, channel: 'c' }).success).toBe(false);
    expect(collection.safeParse({ ...ok, total: 1.5 }).success).toBe(false);
    expect(collection.safeParse({ ...ok, total: '9' }).success).toBe(false);
    expect(collection.safeParse({ ...ok, results: { id: 1 } }).success).toBe(false);
    expect(collection.safeParse({ ...ok, results: [{ id: '1' }] }).success).toBe(false);
  });

  it('parses any list of items with any total and channel', () => {
    const collection = collectionOf(z.object({ id: z.number().int(), name: z.string() }));
    const item = fc.record({ id: fc.integer(), name: fc.string() });
    fc.assert(
      fc.property(fc.array(item), fc.nat(), fc.string(), (results, total, channel) => {
        expect(collection.parse({ results, total, channel })).toEqual({ results, total, channel });
      }),
    );
  });
});

describe('error envelope', () => {
  it('parses {error: {message, code, fields?}}', () => {
    const body = { error: { message: 'Name required', code: 'validation', fields: { name: 'Required' } } };
    expect(errorBodySchema.parse(body)).toEqual(body);
    expect(errorBodySchema.parse({ error: { message: 'm', code: 'c' } })).toEqual({
      error: { message: 'm', code: 'c' },
    });
    expect(errorBodySchema.safeParse({ error: { message: 'm' } }).success).toBe(false);
    expect(errorBodySchema.safeParse({ error: { message: 'm', code: 'c', fields: { a: 1 } } }).success).toBe(
      false,
    );
  });
});

describe('paging and id parameters', () => {
  it('defaults offset 0 and limit 100, coerces query strings and bounds limit to 1..MAX_PAGE_LIMIT', () => {
    expect(pageQuerySchema.parse({})).toEqual({ offset: 0, limit: 100 });
    expect(pageQuerySchema.parse({ offset: '20', limit: String(MAX_PAGE_LIMIT) })).toEqual({
      offset: 20,
      limit: MAX_PAGE_LIMIT,
    });
    expect(pageQuerySchema.safeParse({ limit: String(MAX_PAGE_LIMIT + 1) }).success).toBe(false);
    expect(pageQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
    expect(pageQuerySchema.safeParse({ offset: '-1' }).success).toBe(false);
    expect(pageQuerySchema.safeParse({ offset: '1.5' }).success).toBe(false);
  });

  it('takes positive whole ids only', () => {
    expect(idParamSchema.parse({ id: '42' })).toEqual({ id: 42 });
    for (const id of ['0', '-3', '2.5', 'abc'])
      expect(idParamSchema.safeParse({ id }).success, id).toBe(false);
  });
});
