import { Anchor, Group, Paper, SimpleGrid, Stack, Table, Text, Tooltip } from '@mantine/core';
import {
  type AccountDashboard,
  DASHBOARD_MESSAGES,
  DASHBOARD_RECENT_LIMIT,
  type DashboardNode,
  type DashboardQueueItem,
  formatDateTime,
  formatFileSize,
  mediaManagerLink,
  NODE_TYPE_LABELS,
  naturalDate,
  parentPathOf,
  splitAccountPath,
} from '@media/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';
import { IngestStatusBadge } from '../../ui/IngestStatusBadge.tsx';
import { PieRing } from '../../ui/PieRing.tsx';

/** Tall enough for all the recent rows (20 of 36 px and the header), so the list reads without scrolling. */
const RECENT_TABLE_HEIGHT = DASHBOARD_RECENT_LIMIT * 36 + 48;
/** An item being ingested shows a progress bar under its status. */
const QUEUE_ROW_HEIGHT = 44;

/** One figure with its name, for the row of totals at the top. */
export const Figure = ({ label, value, detail }: { label: string; value: ReactNode; detail?: ReactNode }) => (
  <Paper withBorder p="md" data-testid={`figure-${label.toLowerCase().replace(/\s+/g, '-')}`}>
    <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
      {label}
    </Text>
    <Text size="xl" fw={700}>
      {value}
    </Text>
    {detail && (
      <Text size="sm" c="dimmed">
        {detail}
      </Text>
    )}
  </Paper>
);

const When = ({ iso }: { iso: string }) => (
  <Tooltip label={formatDateTime(new Date(iso))} openDelay={500}>
    <span>{naturalDate(new Date(iso))}</span>
  </Tooltip>
);

/** Counts as a table with each row's share drawn as a ring. */
const CountsTable = ({
  label,
  rows,
  total,
}: {
  label: string;
  rows: { key: string; name: ReactNode; count: number }[];
  total: number;
}) => (
  <Table aria-label={label} verticalSpacing={4} w="auto" miw={320}>
    <Table.Tbody>
      {rows.map((row) => (
        <Table.Tr key={row.key} data-testid={`count-${row.key}`}>
          <Table.Td w={34}>
            <PieRing
              proportion={total > 0 ? row.count / total : 0}
              size={22}
              stroke={4}
              label={String(row.key)}
            />
          </Table.Td>
          <Table.Td>{row.name}</Table.Td>
          <Table.Td ta="right" fw={600}>
            {row.count}
          </Table.Td>
        </Table.Tr>
      ))}
    </Table.Tbody>
  </Table>
);

export const MediaByType = ({ media }: { media: NonNullable<AccountDashboard['media']> }) =>
  media.total === 0 ? (
    <Text c="dimmed">{DASHBOARD_MESSAGES.noMedia}</Text>
  ) : (
    <CountsTable
      label="Media by type"
      total={media.total}
      rows={media.byType.map((row) => ({
        key: row.type,
        name: NODE_TYPE_LABELS[row.type],
        count: row.count,
      }))}
    />
  );

export const QueueByStatus = ({ queue }: { queue: NonNullable<AccountDashboard['queue']> }) =>
  queue.total === 0 ? (
    <Text c="dimmed">{DASHBOARD_MESSAGES.noQueueItems}</Text>
  ) : (
    <CountsTable
      label="Ingest queue by status"
      total={queue.total}
      rows={queue.byStatus
        .filter((row) => row.count > 0)
        .map((row) => ({
          key: row.status,
          name: <IngestStatusBadge status={row.status} />,
          count: row.count,
        }))}
    />
  );

export const StorageUse = ({ storage }: { storage: AccountDashboard['storage'] }) => (
  <SimpleGrid cols={{ base: 2, sm: 4 }}>
    <Figure label="Files" value={storage.files} />
    <Figure label="Size" value={formatFileSize(storage.bytes)} />
    <Figure label="Proxy in the making" value={storage.processing} />
    <Figure label="Proxy failed" value={storage.failed} />
  </SimpleGrid>
);

/** A node's path as a link to its folder in the media manager. */
const NodePath = ({ node }: { node: DashboardNode }) => {
  const { accountName } = splitAccountPath(node.path);
  const folder = node.type === 'folder' ? node.path : (parentPathOf(node.path) ?? node.path);
  return (
    <Anchor component={Link} to={mediaManagerLink(accountName, { path: folder })} size="sm">
      {node.path}
    </Anchor>
  );
};

const nodeColumns: DataTableColumn<DashboardNode>[] = [
  { id: 'name', header: 'Name', width: 220, cell: (node) => node.name },
  { id: 'type', header: 'Type', width: 110, cell: (node) => node.type },
  { id: 'path', header: 'Path', width: 340, cell: (node) => <NodePath node={node} /> },
  { id: 'createdAt', header: 'Created', width: 150, cell: (node) => <When iso={node.createdAt} /> },
];

const itemColumns: DataTableColumn<DashboardQueueItem>[] = [
  { id: 'name', header: 'Item', width: 260, cell: (item) => item.name },
  {
    id: 'status',
    header: 'Status',
    width: 150,
    cell: (item) => <IngestStatusBadge status={item.status} progress={item.progress} />,
  },
  { id: 'changedAt', header: 'Changed', width: 150, cell: (item) => <When iso={item.changedAt} /> },
];

export const RecentNodes = ({ nodes }: { nodes: DashboardNode[] }) => (
  <DataTable
    entities="recent media"
    rows={nodes}
    total={nodes.length}
    getRowId={(node) => String(node.id)}
    columns={nodeColumns}
    emptyText={DASHBOARD_MESSAGES.noMedia}
    height={RECENT_TABLE_HEIGHT}
  />
);

export const RecentQueueItems = ({ items }: { items: DashboardQueueItem[] }) => (
  <DataTable
    entities="recent queue items"
    rows={items}
    total={items.length}
    getRowId={(item) => String(item.id)}
    columns={itemColumns}
    emptyText={DASHBOARD_MESSAGES.noQueueItems}
    height={RECENT_TABLE_HEIGHT + DASHBOARD_RECENT_LIMIT * (QUEUE_ROW_HEIGHT - 36)}
    rowHeight={QUEUE_ROW_HEIGHT}
  />
);

export const Totals = ({ dashboard }: { dashboard: AccountDashboard }) => (
  <SimpleGrid cols={{ base: 1, sm: 3 }}>
    <Figure
      label="Media"
      value={dashboard.media ? dashboard.media.total : '–'}
      detail={dashboard.media ? 'folders, sources, sequences and clips' : DASHBOARD_MESSAGES.noMediaView}
    />
    <Figure
      label="Storage"
      value={formatFileSize(dashboard.storage.bytes)}
      detail={`${dashboard.storage.files} file${dashboard.storage.files === 1 ? '' : 's'}`}
    />
    <Figure
      label="Ingest queue"
      value={dashboard.queue ? dashboard.queue.total : '–'}
      detail={
        dashboard.queue ? (
          <Group gap={4} component="span">
            {dashboard.queue.byStatus.find((row) => row.status === 'queued')?.count ?? 0} queued ·{' '}
            {dashboard.queue.byStatus.find((row) => row.status === 'failed')?.count ?? 0} failed
          </Group>
        ) : (
          DASHBOARD_MESSAGES.queueManagersOnly
        )
      }
    />
  </SimpleGrid>
);

export const RecentActivity = ({ dashboard }: { dashboard: AccountDashboard }) => (
  <Stack>
    <div>
      <Text fw={600} mb={4}>
        Latest media
      </Text>
      {dashboard.media ? (
        <RecentNodes nodes={dashboard.media.recent} />
      ) : (
        <Text c="dimmed">{DASHBOARD_MESSAGES.noMediaView}</Text>
      )}
    </div>
    {dashboard.queue && (
      <div>
        <Text fw={600} mb={4}>
          Latest ingest queue changes
        </Text>
        <RecentQueueItems items={dashboard.queue.recent} />
      </div>
    )}
  </Stack>
);
