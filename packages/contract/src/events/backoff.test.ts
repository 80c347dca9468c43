import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';

describe('retry backoff (spec1 §9)', () => {
  it('waits 1 s, 2 s, 4 s … capped at 32 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(backoffDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000, 32000, 32000,
    ]);
  });
  it('never shrinks as failures grow, and stays within 1 s to 32 s', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        (n) => backoffDelay(n) <= backoffDelay(n + 1) && backoffDelay(n) >= 1000 && backoffDelay(n) <= 32000,
      ),
    );
  });
});
