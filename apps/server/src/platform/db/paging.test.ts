import { describe, expect, it } from 'vitest';
import { pageTotal } from './paging.ts';

describe('pageTotal', () => {
  const never = () => Promise.reject(new Error('counted'));
  it('reads the total off a short page', async () => {
    expect(await pageTotal({ rows: 3, offset: 0, limit: 10 }, never)).toBe(3);
    expect(await pageTotal({ rows: 0, offset: 0, limit: 10 }, never)).toBe(0);
    expect(await pageTotal({ rows: 4, offset: 20, limit: 10 }, never)).toBe(24);
  });
  it('counts for a full page, and for an empty page past the start', async () => {
    expect(await pageTotal({ rows: 10, offset: 0, limit: 10 }, async () => 57)).toBe(57);
    expect(await pageTotal({ rows: 0, offset: 30, limit: 10 }, async () => 12)).toBe(12);
  });
});
