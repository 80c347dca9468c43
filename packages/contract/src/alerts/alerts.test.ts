import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALERT_TYPES,
  type Alert,
  addAlert,
  countAlertsByType,
  notificationLifetime,
  removeAlert,
} from './alerts.ts';

const ids = () => {
  let n = 0;
  return () => `a${++n}`;
};

describe('alerts (spec1 §4, §8)', () => {
  it('merges a duplicate with the same text, type and source into one with a count and a refreshed time', () => {
    const newId = ids();
    let list: readonly Alert[] = [];
    list = addAlert(list, { text: 'Saved', type: 'success', source: 'x' }, 100, newId).alerts;
    const second = addAlert(list, { text: 'Saved', type: 'success', source: 'x' }, 200, newId);
    expect(second.alerts).toHaveLength(1);
    expect(second.alert).toMatchObject({ id: 'a1', count: 2, created: 100, refreshed: 200 });
  });

  it('keeps alerts apart when the text, type or source differ', () => {
    const newId = ids();
    let list: readonly Alert[] = [];
    for (const alert of [
      { text: 'Saved', type: 'success' as const },
      { text: 'Saved', type: 'info' as const },
      { text: 'Saved', type: 'success' as const, source: 'edge' },
      { text: 'Other', type: 'success' as const },
    ]) {
      list = addAlert(list, alert, 1, newId).alerts;
    }
    expect(list).toHaveLength(4);
  });

  it('counts by type, and removes by id', () => {
    const newId = ids();
    let list: readonly Alert[] = [];
    list = addAlert(list, { text: 'A', type: 'danger' }, 1, newId).alerts;
    list = addAlert(list, { text: 'A', type: 'danger' }, 2, newId).alerts;
    list = addAlert(list, { text: 'B', type: 'warning' }, 3, newId).alerts;
    expect(countAlertsByType(list)).toEqual({ danger: 2, warning: 1, info: 0, success: 0 });
    expect(countAlertsByType(removeAlert(list, 'a1'))).toEqual({
      danger: 0,
      warning: 1,
      info: 0,
      success: 0,
    });
  });

  it('keeps the total count equal to the number of alerts added, whatever they are', () => {
    const alertArb = fc.record({
      text: fc.constantFrom('a', 'b', 'c'),
      type: fc.constantFrom(...ALERT_TYPES),
      source: fc.option(fc.constantFrom('s', 't'), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(alertArb), (incoming) => {
        const newId = ids();
        let list: readonly Alert[] = [];
        incoming.forEach((a, i) => {
          list = addAlert(list, a, i, newId).alerts;
        });
        const total = Object.values(countAlertsByType(list)).reduce((x, y) => x + y, 0);
        return total === incoming.length && list.length <= 3 * 4 * 3;
      }),
    );
  });

  it('dismisses notifications after 15 s unless they carry an undo id or neverRemove', () => {
    expect(notificationLifetime({})).toBe(15_000);
    expect(notificationLifetime({ undoId: 'u1' })).toBe(false);
    expect(notificationLifetime({ neverRemove: true })).toBe(false);
  });
});
