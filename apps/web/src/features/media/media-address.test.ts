import { describe, expect, it } from 'vitest';
import { breadcrumbsOf, foldersAlong, selectedPathOf } from './media-address.ts';

describe('the address of the media manager', () => {
  it('opens the account root when no path is given', () => {
    expect(selectedPathOf('acme', null)).toBe('/acme');
    expect(selectedPathOf('acme', '')).toBe('/acme');
    expect(selectedPathOf('acme', '/')).toBe('/acme');
  });

  it('reads an API path of the account, or a path inside it', () => {
    expect(selectedPathOf('acme', '/acme/News/Today')).toBe('/acme/News/Today');
    expect(selectedPathOf('acme', '/News/Today/')).toBe('/acme/News/Today');
    expect(selectedPathOf('acme', 'News')).toBe('/acme/News');
  });

  it('lists the folders from the root down to a path', () => {
    expect(foldersAlong('/acme/News/Today')).toEqual(['/acme', '/acme/News', '/acme/News/Today']);
    expect(foldersAlong('/acme')).toEqual(['/acme']);
  });

  it('makes breadcrumbs of the ancestors and the node', () => {
    const node = (path: string, name: string) => ({ path, name }) as never;
    expect(breadcrumbsOf({ ancestors: [node('/acme', 'acme')], node: node('/acme/News', 'News') })).toEqual([
      { path: '/acme', name: 'acme' },
      { path: '/acme/News', name: 'News' },
    ]);
  });
});
