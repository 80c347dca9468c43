import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { type AuditEntry, type AuditPage, formatCount, formatTableDate } from '@media/contract';
import { useMemo } from 'react';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';
import { actorLabel, targetLabel } from './activity-filter.ts';
import type { useCursorPages } from './useCursorPages.ts';

export const OutcomeBadge = ({ entry }: { entry: Pick<AuditEntry, 'outcome' | 'status'> }) => (
  <Badge color={entry.outcome === 'success' ? 'teal' : 'red'} variant="light">
    {entry.outcome === 'success' ? 'Done' : `Failed${entry.status ? ` (${entry.status})` : ''}`}
  </Badge>
);

/** '12 entries', '1,000+ entries', and the page once past the first. */
const countText = (page: AuditPage, pageNumber: number) => {
  const count = `${formatCount(page.total, page.totalCapped)} ${
    page.total === 1 && !page.totalCapped ? 'entry' : 'entries'
  }`;
  return pageNumber > 1 ? `Page ${pageNumber} · ${count}` : count;
};

/**
 * Rows of the audit log, newest first: the time opens the row's details; Older and Newer page by time (the
 * log grows at its top while one reads).
 */
export const AuditTable = (props: {
  page: AuditPage | undefined;
  loading: boolean;
  error: string | undefined;
  pages: ReturnType<typeof useCursorPages>;
  onOpen: (entry: AuditEntry) => void;
  /** The account column (the Activity page; a user's own activity leaves it out). */
  withAccount?: boolean;
  emptyText: string;
  height?: number;
}) => {
  const { onOpen, withAccount, page, pages } = props;
  const columns = useMemo<DataTableColumn<AuditEntry>[]>(
    () => [
      {
        id: 'at',
        header: 'Time',
        width: 140,
        cell: (entry) => (
          <Anchor
            component="button"
            type="button"
            size="sm"
            aria-label={`Details of ${entry.operation} at ${formatTableDate(new Date(entry.at))}`}
            onClick={() => onOpen(entry)}
          >
            {formatTableDate(new Date(entry.at))}
          </Anchor>
        ),
      },
      { id: 'actor', header: 'Actor', width: 150, cell: actorLabel },
      // The details show the standing; the column is there to be shown when wanted.
      {
        id: 'role',
        header: 'As',
        width: 130,
        optional: true,
        hidden: true,
        cell: (entry) => entry.actingRole ?? '',
      },
      { id: 'operation', header: 'Operation', width: 230, cell: (entry) => entry.operation },
      // A user's own activity is about their user: its target says little more.
      { id: 'target', header: 'Target', width: 130, optional: true, hidden: !withAccount, cell: targetLabel },
      ...(withAccount
        ? [
            {
              id: 'account',
              header: 'Account',
              width: 140,
              optional: true,
              cell: (entry: AuditEntry) =>
                entry.accountName ?? (entry.accountId ? `#${entry.accountId}` : ''),
            },
          ]
        : []),
      { id: 'outcome', header: 'Outcome', width: 110, cell: (entry) => <OutcomeBadge entry={entry} /> },
    ],
    [onOpen, withAccount],
  );
  const rows = page?.results ?? [];
  return (
    <>
      <DataTable
        entities="activity"
        rows={rows}
        total={page?.total ?? 0}
        getRowId={(entry) => entry.id}
        columns={columns}
        loading={props.loading}
        error={props.error}
        emptyText={props.emptyText}
        height={props.height}
        resizable
      />
      <Group justify="space-between">
        <Text size="sm" c="dimmed" data-testid="activity-count">
          {page && page.total > 0 ? countText(page, pages.pageNumber) : ''}
        </Text>
        <Group gap="xs">
          <Button variant="default" size="xs" disabled={pages.pageNumber === 1} onClick={pages.newer}>
            Newer
          </Button>
          <Button
            variant="default"
            size="xs"
            disabled={!page?.next}
            onClick={() => page?.next && pages.older(page.next)}
          >
            Older
          </Button>
        </Group>
      </Group>
    </>
  );
};
