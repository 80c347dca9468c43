import { describe, expect, it } from 'vitest';
import { carriesNodes, draggedPaths, droppedPaths, NODE_DRAG_TYPE } from './node-drag.ts';

const data = (values: Record<string, string>) => ({
  types: Object.keys(values),
  getData: (type: string) => values[type] ?? '',
});

describe('dragging nodes onto the tree', () => {
  it('drags the whole selection when the node is part of it, else the node alone', () => {
    const selected = ['/news/A', '/news/B'];
    expect(draggedPaths('/news/B', selected)).toEqual(['/news/A', '/news/B']);
    expect(draggedPaths('/news/C', selected)).toEqual(['/news/C']);
    expect(draggedPaths('/news/C', [])).toEqual(['/news/C']);
  });

  it('reads the dropped paths, and nothing from a drop that carries no nodes', () => {
    expect(droppedPaths(data({ [NODE_DRAG_TYPE]: JSON.stringify(['/news/A', '/news/B']) }))).toEqual([
      '/news/A',
      '/news/B',
    ]);
    expect(droppedPaths(data({ 'text/plain': '/news/A' }))).toEqual([]);
    expect(droppedPaths(data({ [NODE_DRAG_TYPE]: '{not json' }))).toEqual([]);
    expect(droppedPaths(data({ [NODE_DRAG_TYPE]: JSON.stringify({ path: '/news/A' }) }))).toEqual([]);
    expect(droppedPaths(data({ [NODE_DRAG_TYPE]: JSON.stringify(['/news/A', 3, null]) }))).toEqual([
      '/news/A',
    ]);
  });

  it('knows a drag of nodes by its type alone (its data is read only on drop)', () => {
    expect(carriesNodes({ types: ['text/plain', NODE_DRAG_TYPE] })).toBe(true);
    expect(carriesNodes({ types: ['Files'] })).toBe(false);
  });
});
