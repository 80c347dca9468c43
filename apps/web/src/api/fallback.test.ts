import { describe, expect, it } from 'vitest';
import { ApiError } from './client.ts';
import { emptyCollection, loadOrEmpty } from './fallback.ts';

describe('failed account and user-access loads (spec1 §8)', () => {
  it('raise a danger alert from the error and answer the empty fallback', async () => {
    const raised: unknown[] = [];
    const answer = await loadOrEmpty(
      () => Promise.reject(new ApiError('Gone (not_found)', 404, 'not_found')),
      emptyCollection<{ id: number }>(),
      'loading accounts',
      (alert) => raised.push(alert),
    );
    expect(answer).toEqual({ results: [], total: 0, channel: '' });
    expect(raised).toEqual([
      { type: 'danger', text: 'An error occurred while loading accounts: Gone (not_found)' },
    ]);
    expect(
      await loadOrEmpty(
        () => Promise.resolve(7),
        0,
        'x',
        () => raised.push('no'),
      ),
    ).toBe(7);
    expect(raised).toHaveLength(1);
  });
});
