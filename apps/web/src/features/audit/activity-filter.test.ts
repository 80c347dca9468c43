import { describe, expect, it } from 'vitest';
import {
  actorLabel,
  auditQueryOf,
  filterFromSearch,
  periodProblem,
  searchOfFilter,
  targetLabel,
} from './activity-filter.ts';

describe('the Activity page’s filters (issue 33)', () => {
  it('reads the filters from the address and writes them back, dropping what is not one', () => {
    const search = new URLSearchParams(
      'actor=ann&operation=postAccountsById&targetType=account&targetId=3&accountId=3&from=2026-03-01&to=2026-03-02&x=1',
    );
    const filter = filterFromSearch(search);
    expect(filter).toEqual({
      actor: 'ann',
      operation: 'postAccountsById',
      targetType: 'account',
      targetId: '3',
      accountId: 3,
      from: '2026-03-01',
      to: '2026-03-02',
    });
    expect(filterFromSearch(searchOfFilter(filter))).toEqual(filter);
    expect(filterFromSearch(new URLSearchParams('targetType=spaceship&accountId=abc&actor=%20'))).toEqual({});
  });

  it('asks the server for whole local days, and for a target id only with its type', () => {
    const query = auditQueryOf({ from: '2026-03-01', to: '2026-03-02', targetId: '9', accountId: 4 });
    expect(query.get('from')).toBe(new Date(2026, 2, 1).toISOString());
    expect(query.get('to')).toBe(new Date(2026, 2, 3).toISOString());
    expect(query.get('targetId')).toBeNull();
    expect(query.get('accountId')).toBe('4');
    expect(auditQueryOf({ from: 'yesterday' }).get('from')).toBeNull();
    expect(periodProblem({ from: '2026-03-02', to: '2026-03-01' })).toBeDefined();
    expect(periodProblem({ from: '2026-03-01', to: '2026-03-01' })).toBeUndefined();
  });

  it('names actors and targets in words', () => {
    expect(actorLabel({ actorType: 'user', actorName: 'ann' })).toBe('ann');
    expect(actorLabel({ actorType: 'agent', actorName: 'Studio edge' })).toBe('Studio edge (agent)');
    expect(actorLabel({ actorType: 'system', actorName: null })).toBe('System');
    expect(actorLabel({ actorType: 'anonymous', actorName: null })).toBe('Not signed in');
    expect(targetLabel({ targetType: 'user', targetId: '7' })).toBe('user 7');
    expect(targetLabel({ targetType: 'invitation', targetId: null })).toBe('invitation');
    expect(targetLabel({ targetType: null, targetId: null })).toBe('');
  });
});
