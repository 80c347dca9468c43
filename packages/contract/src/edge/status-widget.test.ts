import { describe, expect, it } from 'vitest';
import type { StatusItem } from '../ingest/ingest.ts';
import { statusProblemCount, statusWidgetRows } from './status-widget.ts';

const item = (type: StatusItem['type'], name: string, status: string): StatusItem => ({
  type,
  name,
  status,
  message: `${name} is ${status}`,
  links: {},
});

const items = [
  item('EdgeServer', 'Studio', 'ok'),
  item('Service', 'Files', 'error'),
  item('Endpoint', 'Fine', 'ok'),
  item('Endpoint', 'Broken', 'error'),
  item('EdgeServer', 'Van', 'error'),
  item('Service', 'Streams', 'warning'),
];

describe('statusWidgetRows', () => {
  it('shows only errors unless all are asked for, keeping the order and nesting', () => {
    expect(statusWidgetRows(items, false).map((r) => [r.item.name, r.depth])).toEqual([
      ['Files', 1],
      ['Broken', 2],
      ['Van', 0],
    ]);
    expect(statusWidgetRows(items, true).map((r) => [r.item.name, r.depth])).toEqual([
      ['Studio', 0],
      ['Files', 1],
      ['Fine', 2],
      ['Broken', 2],
      ['Van', 0],
      ['Streams', 1],
    ]);
  });

  it('counts the problems; nothing in error means no row until all are shown', () => {
    expect(statusProblemCount(items)).toBe(3);
    const fine = [item('EdgeServer', 'Studio', 'ok'), item('Endpoint', 'Sibling', 'warning')];
    expect(statusProblemCount(fine)).toBe(0);
    expect(statusWidgetRows(fine, false)).toEqual([]);
    expect(statusWidgetRows(fine, true)).toHaveLength(2);
  });
});
