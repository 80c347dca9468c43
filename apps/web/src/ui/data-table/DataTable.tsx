import { Alert, Box, Checkbox, Group, LoadingOverlay, Table, Text, UnstyledButton } from '@mantine/core';
import { type PageWindow, TABLE_SIDEBAR_WIDTH, tableScrollHeight } from '@media/contract';
import {
  type ColumnDef,
  type ColumnVisibilityState,
  columnResizingFeature,
  columnSizingFeature,
  columnVisibilityFeature,
  type RowData,
  type RowSelectionState,
  rowSelectionFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import { DragSelectArea } from '../DragSelectArea.tsx';
import { ellipsisIfText } from '../Ellipsis.tsx';
import { Paginator } from '../Paginator.tsx';
import { OptionalColumnsMenu } from './OptionalColumnsMenu.tsx';
import { moveFocusBetweenRows } from './table-keys.ts';
import { useWindowHeight } from './useWindowHeight.ts';

const features = tableFeatures({
  rowSelectionFeature,
  rowSortingFeature,
  columnVisibilityFeature,
  columnSizingFeature,
  columnResizingFeature,
});

export type DataTableColumn<T extends RowData> = {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  sortable?: boolean;
  /** Offered in the columns menu; `hidden` starts it hidden. */
  optional?: boolean;
  hidden?: boolean;
  width?: number;
};

export type DataTableSort = { id: string; desc: boolean } | undefined;

export type DataTableProps<T extends RowData> = {
  /** Plural name of the rows, for the error text. */
  entities: string;
  rows: T[];
  total: number;
  getRowId: (row: T) => string;
  columns: DataTableColumn<T>[];
  loading?: boolean;
  error?: string | null;
  emptyText?: string;
  sort?: DataTableSort;
  onSortChange?: (sort: DataTableSort) => void;
  selectedIds?: string[];
  onSelectionChange?: (ids: string[]) => void;
  /** Rows can also be selected by drawing a rectangle over them (spec1 §2 Drag-select area). */
  dragSelect?: boolean;
  window?: PageWindow;
  onWindowChange?: (window: PageWindow) => void;
  resizable?: boolean;
  /**
   * Height of the scrolling body, for a table inside a card or a dialog; rows are virtualised inside it.
   * Without it the body is the window's height less 200 px (spec3 §9), followed as the window is resized.
   */
  height?: number;
  /** Height of every row, for rows taller than one line of text (thumbnails). */
  rowHeight?: number;
};

const ROW_HEIGHT = 36;
const SELECT_COLUMN = '__select';

/** spec3 §2: 'There has been an error loading the {entities}: {error}'. */
export const tableErrorText = (entities: string, error: string) =>
  `There has been an error loading the ${entities}: ${error}`;

/**
 * The product's table: server-side paging and sorting, select-all that is on only when every row is,
 * an optional-columns menu, resizable columns, a loading overlay, error and empty states, and
 * virtualised rows so thousands of rows scroll smoothly.
 */
export const DataTable = <T extends RowData>(props: DataTableProps<T>) => {
  const { rows, getRowId, selectedIds = [], onSelectionChange } = props;
  const selectable = onSelectionChange !== undefined;
  const [columnVisibility, setColumnVisibility] = useState<ColumnVisibilityState>(() =>
    Object.fromEntries(props.columns.filter((c) => c.hidden).map((c) => [c.id, false])),
  );
  const [columnSizing, setColumnSizing] = useState<Record<string, number>>({});

  // One cell renderer for the table's life, reading the latest columns: a cell function is rendered as a
  // component, so a new one on every update would remount each cell (and close a menu open in a row).
  const latestColumns = useRef(props.columns);
  latestColumns.current = props.columns;
  const renderCell = useCallback(({ row, column }: { row: { original: T }; column: { id: string } }) => {
    const shown = latestColumns.current.find((candidate) => candidate.id === column.id);
    // A text that does not fit ends in an ellipsis and shows in full as a tooltip (spec3 §9).
    return shown ? ellipsisIfText(shown.cell(row.original)) : null;
  }, []);
  const columnDefs = useMemo<ColumnDef<typeof features, T>[]>(
    () =>
      props.columns.map((column) => ({
        id: column.id,
        header: column.header,
        accessorFn: (row: T) => row,
        cell: renderCell,
        enableSorting: column.sortable ?? false,
        // Rows are sorted by the server; the first press sorts ascending, whatever the cell holds.
        sortDescFirst: false,
        enableHiding: column.optional ?? false,
        size: column.width ?? 160,
      })),
    [props.columns, renderCell],
  );
  const rowSelection = useMemo<RowSelectionState>(
    () => Object.fromEntries(selectedIds.map((id) => [id, true])),
    [selectedIds],
  );
  const sorting = useMemo<SortingState>(() => (props.sort ? [props.sort] : []), [props.sort]);

  const table = useTable({
    features,
    columns: columnDefs,
    data: rows,
    getRowId: (row: T) => getRowId(row),
    manualSorting: true,
    enableRowSelection: selectable,
    enableColumnResizing: props.resizable ?? false,
    columnResizeMode: 'onChange',
    state: { rowSelection, sorting, columnVisibility, columnSizing },
    onRowSelectionChange: (updater) => {
      const next = typeof updater === 'function' ? updater(rowSelection) : updater;
      onSelectionChange?.(Object.keys(next).filter((id) => next[id]));
    },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      props.onSortChange?.(next[0] ? { id: next[0].id, desc: next[0].desc } : undefined);
    },
    onColumnVisibilityChange: setColumnVisibility,
    onColumnSizingChange: setColumnSizing,
  });

  const windowHeight = useWindowHeight();
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableRows = table.getRowModel().rows;
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => props.rowHeight ?? ROW_HEIGHT,
    overscan: 12,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const paddingTop = virtualRows[0]?.start ?? 0;
  const paddingBottom =
    virtualRows.length > 0 ? virtualizer.getTotalSize() - (virtualRows.at(-1)?.end ?? 0) : 0;

  // Select-all is on only when every row is selected (spec3 §4).
  const allSelected = rows.length > 0 && rows.every((row) => rowSelection[getRowId(row)]);
  const someSelected = !allSelected && rows.some((row) => rowSelection[getRowId(row)]);
  const visibleColumns = table.getVisibleLeafColumns();
  const optionalColumns = table
    .getAllLeafColumns()
    .filter((column) => column.getCanHide())
    .map((column) => ({
      id: column.id,
      label: props.columns.find((c) => c.id === column.id)?.header ?? column.id,
      visible: column.getIsVisible(),
    }));
  const colSpan = visibleColumns.length + (selectable ? 1 : 0);

  return (
    <Box>
      {optionalColumns.length > 0 && (
        <Group justify="flex-end" mb="xs">
          <OptionalColumnsMenu
            columns={optionalColumns}
            onToggle={(id, visible) => table.getColumn(id)?.toggleVisibility(visible)}
          />
        </Group>
      )}
      {props.error && (
        <Alert color="red" role="alert" mb="xs">
          {tableErrorText(props.entities, props.error)}
        </Alert>
      )}
      <Box pos="relative">
        <LoadingOverlay
          visible={props.loading ?? false}
          zIndex={2}
          overlayProps={{ blur: 1 }}
          loaderProps={{ 'aria-label': 'Loading' }}
        />
        <Box
          ref={scrollRef}
          style={{ maxHeight: props.height ?? tableScrollHeight(windowHeight), overflow: 'auto' }}
          data-testid="data-table-scroll"
        >
          <DragSelectArea
            disabled={!(selectable && props.dragSelect)}
            onSelect={(ids) => onSelectionChange?.(ids)}
          >
            <Table
              striped
              highlightOnHover
              stickyHeader
              layout="fixed"
              style={{
                width: '100%',
                minWidth: table.getTotalSize() + (selectable ? TABLE_SIDEBAR_WIDTH : 0),
              }}
            >
              <Table.Thead>
                {table.getHeaderGroups().map((group) => (
                  <Table.Tr key={group.id}>
                    {selectable && (
                      <Table.Th style={{ width: TABLE_SIDEBAR_WIDTH }} key={SELECT_COLUMN}>
                        <Checkbox
                          aria-label="Select all"
                          checked={allSelected}
                          indeterminate={someSelected}
                          disabled={rows.length === 0}
                          onChange={(e) => table.toggleAllRowsSelected(e.currentTarget.checked)}
                        />
                      </Table.Th>
                    )}
                    {group.headers.map((header) => {
                      const sorted = header.column.getIsSorted();
                      return (
                        <Table.Th
                          key={header.id}
                          style={{ width: header.getSize(), position: 'relative' }}
                          aria-sort={
                            sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined
                          }
                        >
                          {header.column.getCanSort() ? (
                            <UnstyledButton
                              onClick={header.column.getToggleSortingHandler()}
                              fw={600}
                              fz="sm"
                            >
                              <table.FlexRender header={header} />{' '}
                              {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : ''}
                            </UnstyledButton>
                          ) : (
                            <table.FlexRender header={header} />
                          )}
                          {props.resizable && (
                            // biome-ignore lint/a11y/noStaticElementInteractions: a mouse-only resize handle; widths also fit by default
                            <div
                              onMouseDown={header.getResizeHandler()}
                              onTouchStart={header.getResizeHandler()}
                              style={{
                                position: 'absolute',
                                right: 0,
                                top: 0,
                                bottom: 0,
                                width: 5,
                                cursor: 'col-resize',
                                userSelect: 'none',
                              }}
                            />
                          )}
                        </Table.Th>
                      );
                    })}
                  </Table.Tr>
                ))}
              </Table.Thead>
              <Table.Tbody onKeyDown={moveFocusBetweenRows}>
                {tableRows.length === 0 && !props.loading && !props.error && (
                  <Table.Tr>
                    <Table.Td colSpan={colSpan}>
                      <Text c="dimmed" ta="center" py="md" data-testid="data-table-empty">
                        {props.emptyText ?? `No ${props.entities}`}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {paddingTop > 0 && (
                  <Table.Tr aria-hidden>
                    <Table.Td colSpan={colSpan} style={{ height: paddingTop, padding: 0 }} />
                  </Table.Tr>
                )}
                {virtualRows.map((virtualRow) => {
                  const row = tableRows[virtualRow.index];
                  if (!row) return null;
                  return (
                    <Table.Tr
                      key={row.id}
                      data-row-id={row.id}
                      data-select-id={selectable && props.dragSelect ? row.id : undefined}
                      h={props.rowHeight ?? ROW_HEIGHT}
                      bg={row.getIsSelected() ? 'var(--mantine-primary-color-light)' : undefined}
                    >
                      {selectable && (
                        <Table.Td>
                          <Checkbox
                            aria-label={`Select row ${row.id}`}
                            checked={row.getIsSelected()}
                            onChange={row.getToggleSelectedHandler()}
                          />
                        </Table.Td>
                      )}
                      {row.getVisibleCells().map((cell) => (
                        <Table.Td
                          key={cell.id}
                          style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                        >
                          <table.FlexRender cell={cell} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  );
                })}
                {paddingBottom > 0 && (
                  <Table.Tr aria-hidden>
                    <Table.Td colSpan={colSpan} style={{ height: paddingBottom, padding: 0 }} />
                  </Table.Tr>
                )}
              </Table.Tbody>
            </Table>
          </DragSelectArea>
        </Box>
      </Box>
      {props.window && props.onWindowChange && (
        <Box mt="xs">
          <Paginator total={props.total} window={props.window} onChange={props.onWindowChange} />
        </Box>
      )}
    </Box>
  );
};
