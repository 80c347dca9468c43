import { describe, expect, it } from 'vitest';
import { mergeById } from './live-by-id.ts';

type Item = { id: number; name: string; siteId: number };
const list = (...results: Item[]) => ({ results, total: results.length, channel: 'sites/1/EdgeServers' });
const a = { id: 1, name: 'A', siteId: 1 };
const b = { id: 2, name: 'B', siteId: 1 };
const ofSite1 = (item: Item) => item.siteId === 1;

describe('a changed item fetched by id (spec2 §4 Realtime)', () => {
  it('replaces the item in place, leaving the others as they were', () => {
    const merged = mergeById(list(a, b), 1, { ...a, name: 'A2' }, ofSite1);
    expect(merged.results).toEqual([{ ...a, name: 'A2' }, b]);
    expect(merged.results[1]).toBe(b);
    expect(merged.total).toBe(2);
  });

  it('inserts a new item that belongs to the list', () => {
    expect(mergeById(list(a), 2, b, ofSite1)).toEqual(list(a, b));
  });

  it('drops an item that is gone or has moved out of the list', () => {
    expect(mergeById(list(a, b), 1, null, ofSite1)).toEqual(list(b));
    expect(mergeById(list(a, b), 2, { ...b, siteId: 7 }, ofSite1)).toEqual(list(a));
  });

  it('ignores a change to an item the list neither holds nor wants', () => {
    const before = list(a);
    expect(mergeById(before, 3, { id: 3, name: 'C', siteId: 7 }, ofSite1)).toBe(before);
    expect(mergeById(before, 3, null, ofSite1)).toBe(before);
  });
});
