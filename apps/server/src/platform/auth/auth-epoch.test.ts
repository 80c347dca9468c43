import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { AuthEpoch } from './auth-epoch.ts';

/**
 * A database whose epoch reads answer when the test says: each read takes the epoch's value at the moment
 * it starts (as a PostgreSQL snapshot does) and answers on `answer()`.
 */
const slowEpochTable = () => {
  let value = 0;
  const waiting: (() => void)[] = [];
  const db = {
    select: () => ({
      from: () => ({
        where: () => ({
          prepare: () => ({
            execute: () => {
              const seen = value;
              return new Promise<{ value: number }[]>((resolve) =>
                waiting.push(() => resolve([{ value: seen }])),
              );
            },
          }),
        }),
      }),
    }),
  } as unknown as Db;
  return {
    db,
    change: () => {
      value += 1;
    },
    reads: () => waiting.length,
    /** Answers the oldest read under way. */
    answer: async () => {
      waiting.shift()?.();
      // The queued read starts a few promise turns after the one before it answers.
      for (let turn = 0; turn < 10; turn++) await Promise.resolve();
    },
  };
};

describe('the auth epoch on PostgreSQL (read per request)', () => {
  it('gives a request the epoch of a read started after it came, shared with the requests that came meanwhile', async () => {
    const table = slowEpochTable();
    const epoch = await AuthEpoch.open({ db: table.db });
    const first = epoch.current();
    expect(table.reads()).toBe(1);
    // Committed after the first read began but before these requests came: they must see it.
    table.change();
    const later = [epoch.current(), epoch.current(), epoch.current()];
    expect(table.reads()).toBe(1);
    await table.answer();
    const firstGeneration = await first;
    expect(table.reads()).toBe(1);
    await table.answer();
    const generations = await Promise.all(later);
    expect(new Set(generations).size).toBe(1);
    expect(generations[0]).not.toBe(firstGeneration);
    expect(epoch.holds(firstGeneration)).toBe(false);
  });

  it('keeps the generation while the epoch stands still, and reads again for each new request', async () => {
    const table = slowEpochTable();
    const epoch = await AuthEpoch.open({ db: table.db });
    const one = epoch.current();
    await table.answer();
    const two = epoch.current();
    expect(table.reads()).toBe(1);
    await table.answer();
    expect(await two).toBe(await one);
  });
});
