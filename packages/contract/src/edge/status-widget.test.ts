import { describe, expect, it } from 'vitest';
import type { StatusItem } from '../ingest/ingest.ts';
import { statusProblemCount, statusWidgetRows } from './status-widget.ts';

const item = (type: StatusItem['type'], name: string, status: string, edge: string): StatusItem => ({
  type,
  name,
  status,
  message: `${name} is ${status}`,
  links: { edgeServer: `/users/1/edge#/${edge}` },
});

// The status API's order: each edge server, then its services, each followed by its endpoints.
const items = [
  item('EdgeServer', 'Studio', 'ok', 'studio'),
  item('Service', 'Files', 'error', 'studio'),
  item('Endpoint', 'Fine', 'ok', 'studio'),
  item('Endpoint', 'Broken', 'error', 'studio'),
  item('EdgeServer', 'Van', 'error', 'van'),
  item('Service', 'Streams', 'error', 'van'),
  item('Endpoint', 'Camera', 'error', 'van'),
  item('Service', 'Spare', 'warning', 'van'),
];
const view = (showAll: boolean) =>
  statusWidgetRows(items, showAll).map(({ item, depth, within }) => [item.name, depth, within.join(' › ')]);

describe('statusWidgetRows', () => {
  it("shows only items in 'error' unless Show all is on, keeping the order", () => {
    expect(view(false).map(([name]) => name)).toEqual(['Files', 'Broken', 'Van', 'Streams', 'Camera']);
    expect(view(true).map(([name]) => name)).toEqual(items.map((i) => i.name));
  });

  it('nests services under their edge server and endpoints under their service', () => {
    expect(view(true)).toEqual([
      ['Studio', 0, ''],
      ['Files', 1, ''],
      ['Fine', 2, ''],
      ['Broken', 2, ''],
      ['Van', 0, ''],
      ['Streams', 1, ''],
      ['Camera', 2, ''],
      ['Spare', 1, ''],
    ]);
  });

  it('indents under the parents shown and names those hidden', () => {
    expect(view(false)).toEqual([
      ['Files', 0, 'Studio'],
      ['Broken', 1, 'Studio'],
      ['Van', 0, ''],
      ['Streams', 1, ''],
      ['Camera', 2, ''],
    ]);
  });

  it('takes no parent from another edge server', () => {
    const stray = [item('EdgeServer', 'Studio', 'error', 'studio'), item('Endpoint', 'Lost', 'error', 'van')];
    expect(statusWidgetRows(stray, true).map((row) => [row.depth, row.within])).toEqual([
      [0, []],
      [0, []],
    ]);
  });

  it('counts the problems; nothing in error means no row until all are shown', () => {
    expect(statusProblemCount(items)).toBe(5);
    const fine = [item('EdgeServer', 'Studio', 'ok', 's'), item('Endpoint', 'Sibling', 'warning', 's')];
    expect(statusProblemCount(fine)).toBe(0);
    expect(statusWidgetRows(fine, false)).toEqual([]);
    expect(statusWidgetRows(fine, true)).toHaveLength(2);
  });
});
