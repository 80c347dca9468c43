import { Alert, Box, Checkbox, LoadingOverlay, Table, Text } from '@mantine/core';
import type { PageWindow } from '@media/contract';
import type { ReactNode } from 'react';
import { tableErrorText } from './data-table/DataTable.tsx';
import { Paginator } from './Paginator.tsx';

export type MarkableColumn<T> = { id: string; header: string; cell: (row: T, marked: boolean) => ReactNode };

/**
 * The editable lists of spec1 §2 (account users, invites, sessions, managers): a delete (or select)
 * checkbox per row with select-all in the header that is on only when every row is marked, marked rows
 * greyed, a paginator, and loading, error and empty states. The caller keeps the marks.
 */
export const MarkableTable = <T,>(props: {
  entities: string;
  rows: T[];
  total: number;
  getRowId: (row: T) => string;
  rowLabel: (row: T) => string;
  columns: MarkableColumn<T>[];
  marked: ReadonlySet<string>;
  onMarkedChange: (marked: Set<string>) => void;
  markHeader?: string;
  /** Rows that cannot be marked (e.g. the user themselves when they may not remove themselves). */
  canMark?: (row: T) => boolean;
  window: PageWindow;
  onWindowChange: (window: PageWindow) => void;
  loading?: boolean;
  error?: string | null;
  emptyText: string;
}) => {
  const markable = props.rows.filter((row) => props.canMark?.(row) ?? true);
  const allMarked = markable.length > 0 && markable.every((row) => props.marked.has(props.getRowId(row)));
  const someMarked = markable.some((row) => props.marked.has(props.getRowId(row)));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(props.marked);
    if (on) next.add(id);
    else next.delete(id);
    props.onMarkedChange(next);
  };
  const toggleAll = (on: boolean) => {
    const next = new Set(props.marked);
    for (const row of markable) {
      if (on) next.add(props.getRowId(row));
      else next.delete(props.getRowId(row));
    }
    props.onMarkedChange(next);
  };
  return (
    <Box pos="relative">
      <LoadingOverlay visible={props.loading === true} zIndex={2} overlayProps={{ blur: 1 }} />
      {props.error ? (
        <Alert color="red" role="alert">
          {tableErrorText(props.entities, props.error)}
        </Alert>
      ) : (
        <Table striped highlightOnHover verticalSpacing={4} aria-label={props.entities}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={90}>
                <Checkbox
                  aria-label={`${props.markHeader ?? 'Delete'} all ${props.entities}`}
                  label={props.markHeader ?? 'Delete'}
                  checked={allMarked}
                  indeterminate={someMarked && !allMarked}
                  disabled={markable.length === 0}
                  onChange={(event) => toggleAll(event.currentTarget.checked)}
                />
              </Table.Th>
              {props.columns.map((column) => (
                <Table.Th key={column.id}>{column.header}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.rows.length === 0 && !props.loading ? (
              <Table.Tr>
                <Table.Td colSpan={props.columns.length + 1}>
                  <Text c="dimmed" ta="center" py="md">
                    {props.emptyText}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              props.rows.map((row) => {
                const id = props.getRowId(row);
                const marked = props.marked.has(id);
                return (
                  <Table.Tr
                    key={id}
                    style={marked ? { opacity: 0.45 } : undefined}
                    data-marked={marked || undefined}
                  >
                    <Table.Td>
                      <Checkbox
                        aria-label={`${props.markHeader ?? 'Delete'} ${props.rowLabel(row)}`}
                        checked={marked}
                        disabled={!(props.canMark?.(row) ?? true)}
                        onChange={(event) => toggle(id, event.currentTarget.checked)}
                      />
                    </Table.Td>
                    {props.columns.map((column) => (
                      <Table.Td key={column.id}>{column.cell(row, marked)}</Table.Td>
                    ))}
                  </Table.Tr>
                );
              })
            )}
          </Table.Tbody>
        </Table>
      )}
      <Paginator total={props.total} window={props.window} onChange={props.onWindowChange} />
    </Box>
  );
};
