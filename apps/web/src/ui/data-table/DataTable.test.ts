import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DataTable, type DataTableProps } from './DataTable.tsx';

type Row = { id: string; name: string };

const LONG = 'A very long media name that will not fit in its column';

const render = (props: Partial<DataTableProps<Row>> = {}) =>
  renderToString(
    createElement(
      MantineProvider,
      null,
      createElement(DataTable<Row>, {
        entities: 'rows',
        rows: [{ id: '1', name: LONG }],
        total: 1,
        getRowId: (row) => row.id,
        columns: [
          { id: 'name', header: 'Name', width: 80, cell: (row) => row.name },
          { id: 'badge', header: 'Badge', cell: (row) => createElement('b', null, row.id) },
        ],
        onSelectionChange: () => {},
        ...props,
      }),
    ),
  );

/** Rendered without a window, the page is taken as 800 px high. */
describe('DataTable sizes (spec3 §9)', () => {
  it('makes the scrolling body the window height less 200 unless the page sets a height', () => {
    expect(render()).toMatch(/style="max-height:600px;overflow:auto"[^>]*data-testid="data-table-scroll"/);
    expect(render({ height: 360 })).toMatch(/style="max-height:360px;overflow:auto"/);
  });

  it('draws the selection sidebar 50 px wide', () => {
    expect(render()).toMatch(
      /<th[^>]*style="[^"]*width:50px[^"]*"[^>]*>(?:(?!<\/th>).)*aria-label="Select all"/,
    );
  });
});
