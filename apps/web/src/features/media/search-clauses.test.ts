import { NODE_SEARCH_CLAUSES_MAX } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { addClause, clauseKeyOf, clauseLabel, isSearching, NO_SEARCH } from './search-clauses.ts';

describe('search clauses of the media manager', () => {
  it('reads the key choices and takes any other key as a metadata key', () => {
    expect(clauseKeyOf('Name')).toBe('name');
    expect(clauseKeyOf('any text')).toBe('text');
    expect(clauseKeyOf(' location ')).toBe('location');
  });

  it('labels a chip by its key and value', () => {
    expect(clauseLabel({ key: 'name', value: 'news' })).toBe('Name: news');
    expect(clauseLabel({ key: 'text', value: 'goal' })).toBe('Any text: goal');
    expect(clauseLabel({ key: 'location', value: 'London' })).toBe('location: London');
  });

  it('adds a clause once, never an empty one, and at most the limit', () => {
    const one = addClause([], 'Name', ' News ');
    expect(one).toEqual([{ key: 'name', value: 'News', match: 'contains' }]);
    expect(addClause(one, 'Name', 'news')).toBe(one);
    expect(addClause(one, 'Name', '  ')).toBe(one);
    expect(addClause(one, '', 'x')).toBe(one);
    let many = one;
    for (let index = 0; index < NODE_SEARCH_CLAUSES_MAX + 3; index += 1)
      many = addClause(many, 'k', `v${index}`);
    expect(many).toHaveLength(NODE_SEARCH_CLAUSES_MAX);
  });

  it('is searching while a clause or a created-date bound is set', () => {
    expect(isSearching(NO_SEARCH)).toBe(false);
    expect(isSearching({ ...NO_SEARCH, createdFrom: '2026-01-01' })).toBe(true);
    expect(isSearching({ ...NO_SEARCH, clauses: [{ key: 'name', value: 'a', match: 'contains' }] })).toBe(
      true,
    );
  });
});
