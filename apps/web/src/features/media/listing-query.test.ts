import { type MediaNode, TOTAL_COUNT_CAP } from '@media/contract';
import { describe, expect, it } from 'vitest';
import {
  childrenCountText,
  childrenOf,
  type ListingPage,
  listingQueryString,
  withoutNodes,
} from './listing-query.ts';

const page = (paths: string[], total = paths.length): ListingPage => ({
  total,
  channel: 'accounts/1/nodes',
  results: {
    ancestors: [],
    node: { path: '/acme' } as MediaNode,
    children: paths.map((path) => ({ path }) as MediaNode),
    nextChildOffset: null,
    actingRole: null,
  },
});

describe('the listing query of the media manager', () => {
  it('sends the path and the child order, the offset only past the first page', () => {
    const query = new URLSearchParams(listingQueryString({ path: '/acme/News', childOrder: 'time' }, 0));
    expect(Object.fromEntries(query)).toEqual({ path: '/acme/News', childOrder: 'time' });
    expect(
      new URLSearchParams(listingQueryString({ path: '/acme', childOrder: 'alphabetical' }, 100)).get(
        'nextChildOffset',
      ),
    ).toBe('100');
  });

  it('repeats each search clause as JSON and adds the types and the created-date bounds', () => {
    const query = new URLSearchParams(
      listingQueryString(
        {
          path: '/acme',
          childOrder: 'time',
          types: ['folder'],
          search: [
            { key: 'name', value: 'news', match: 'contains' },
            { key: 'location', value: 'London', match: 'contains' },
          ],
          createdFrom: '2026-01-01',
          createdTo: null,
        },
        0,
      ),
    );
    expect(query.get('type')).toBe('folder');
    expect(query.getAll('search').map((text) => JSON.parse(text))).toEqual([
      { key: 'name', value: 'news', match: 'contains' },
      { key: 'location', value: 'London', match: 'contains' },
    ]);
    expect(query.get('createdFrom')).toBe('2026-01-01');
    expect(query.has('createdTo')).toBe(false);
  });

  it('joins the pages and takes moved nodes out of them', () => {
    const pages = [page(['/acme/a', '/acme/b'], 3), page(['/acme/c'], 3)];
    expect(childrenOf(pages).map((node) => node.path)).toEqual(['/acme/a', '/acme/b', '/acme/c']);
    const after = withoutNodes(pages, new Set(['/acme/b']));
    expect(childrenOf(after).map((node) => node.path)).toEqual(['/acme/a', '/acme/c']);
    expect(after[0]?.total).toBe(2);
    expect(after[1]).toBe(pages[1]);
  });
});

describe('the count under the children', () => {
  it('shows the exact total, grouped by thousands', () => {
    expect(childrenCountText(4, 4)).toBe('4 of 4');
    expect(childrenCountText(100, 9_999, false)).toBe('100 of 9,999');
    expect(childrenCountText(100, 10_000, false)).toBe('100 of 10,000');
  });

  it("shows a capped total as '1,000+'", () => {
    expect(childrenCountText(100, TOTAL_COUNT_CAP, true)).toBe('100 of 1,000+');
    // Paged on past the cap, the total shown is never below the rows shown.
    expect(childrenCountText(1_100, TOTAL_COUNT_CAP, true)).toBe('1,100 of 1,100+');
  });
});
