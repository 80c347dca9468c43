import { Alert, Badge, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import {
  DIAGNOSTIC_MESSAGES,
  type DiagnosticEdgeServer,
  type DiagnosticState,
  type Diagnostics,
  diskUsedShare,
  formatDateTime,
  formatFileSize,
  type JobQueueCounts,
  naturalDate,
} from '@media/contract';
import type { ReactNode } from 'react';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';
import { PieRing } from '../../ui/PieRing.tsx';

export const STATE_COLORS: Record<DiagnosticState, string> = { ok: 'teal', warning: 'yellow', error: 'red' };

export const StateBadge = ({ state, label }: { state: DiagnosticState; label?: string }) => (
  <Badge color={STATE_COLORS[state]} variant="light" data-state={state}>
    {label ?? state}
  </Badge>
);

/** A two-column table of names and values. */
const Facts = ({ rows, label }: { rows: [string, ReactNode][]; label: string }) => (
  <Table aria-label={label} withRowBorders={false} verticalSpacing={4} w="auto">
    <Table.Tbody>
      {rows.map(([name, value]) => (
        <Table.Tr key={name}>
          <Table.Th fw={500} pr="xl" style={{ whiteSpace: 'nowrap' }}>
            {name}
          </Table.Th>
          <Table.Td>{value}</Table.Td>
        </Table.Tr>
      ))}
    </Table.Tbody>
  </Table>
);

const ToolVersion = ({ version }: { version: string | null }) =>
  version ? (
    <Text size="sm">{version}</Text>
  ) : (
    <StateBadge state="error" label={DIAGNOSTIC_MESSAGES.toolMissing} />
  );

export const VersionsFacts = ({ versions }: { versions: Diagnostics['versions'] }) => (
  <Facts
    label="Versions"
    rows={[
      ['Product', versions.product],
      ['Node.js', versions.node],
      [
        'Database',
        `${versions.database.driver === 'pglite' ? 'PGlite (embedded PostgreSQL)' : 'PostgreSQL'} ${versions.database.version}`,
      ],
      ['ffmpeg', <ToolVersion key="ffmpeg" version={versions.ffmpeg} />],
      ['ffprobe', <ToolVersion key="ffprobe" version={versions.ffprobe} />],
    ]}
  />
);

export const ChecksTable = ({ checks }: { checks: Diagnostics['checks'] }) => (
  <Table aria-label="Connectivity checks" striped>
    <Table.Thead>
      <Table.Tr>
        <Table.Th>Check</Table.Th>
        <Table.Th>State</Table.Th>
        <Table.Th ta="right">Time</Table.Th>
        <Table.Th>Result</Table.Th>
      </Table.Tr>
    </Table.Thead>
    <Table.Tbody>
      {checks.map((check) => (
        <Table.Tr key={check.name} data-testid={`check-${check.name}`}>
          <Table.Td>{check.label}</Table.Td>
          <Table.Td>
            <StateBadge state={check.status} />
          </Table.Td>
          <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
            {check.ms === null ? '–' : `${check.ms} ms`}
          </Table.Td>
          <Table.Td>
            <Text size="sm">{check.message}</Text>
          </Table.Td>
        </Table.Tr>
      ))}
    </Table.Tbody>
  </Table>
);

const jobColumns: DataTableColumn<JobQueueCounts>[] = [
  { id: 'name', header: 'Queue', width: 220, cell: (queue) => queue.name },
  { id: 'queued', header: 'Queued', width: 110, cell: (queue) => queue.queued },
  { id: 'active', header: 'Active', width: 110, cell: (queue) => queue.active },
  {
    id: 'failed',
    header: 'Failed',
    width: 110,
    cell: (queue) => (queue.failed > 0 ? <StateBadge state="error" label={String(queue.failed)} /> : 0),
  },
  { id: 'completed', header: 'Completed', width: 120, cell: (queue) => queue.completed },
];

export const JobsTable = ({ jobs }: { jobs: Diagnostics['jobs'] }) => (
  <Stack gap="xs">
    <DataTable
      entities="job queues"
      rows={jobs.queues}
      total={jobs.queues.length}
      getRowId={(queue) => queue.name}
      columns={jobColumns}
      error={jobs.error}
      emptyText={DIAGNOSTIC_MESSAGES.noQueues}
      height={260}
    />
  </Stack>
);

export const StorageFacts = ({ storage }: { storage: Diagnostics['storage'] }) => {
  const { disk } = storage;
  return (
    <Group align="flex-start" gap="xl">
      <Facts
        label="Storage"
        rows={[
          ['Driver', storage.driver === 'local' ? 'Local disk' : 'S3-compatible'],
          ['Media files go to', storage.location],
          ['DATA_DIR', disk?.path ?? 'unknown'],
        ]}
      />
      {disk ? (
        <Group gap="sm" data-testid="disk-space">
          <PieRing
            proportion={diskUsedShare(disk.freeBytes, disk.totalBytes)}
            size={56}
            label="Disk used"
            color={`var(--mantine-color-${STATE_COLORS[disk.status]}-6)`}
          />
          <div>
            <Text size="sm" fw={500}>
              {formatFileSize(disk.freeBytes)} free of {formatFileSize(disk.totalBytes)}
            </Text>
            <StateBadge state={disk.status} />
          </div>
        </Group>
      ) : (
        <Alert color="yellow">The free space of DATA_DIR could not be read.</Alert>
      )}
    </Group>
  );
};

const LastSeen = ({ iso }: { iso: string | null }) =>
  iso ? (
    <Tooltip label={formatDateTime(new Date(iso))} openDelay={500}>
      <span>{naturalDate(new Date(iso))}</span>
    </Tooltip>
  ) : (
    <Text span c="dimmed" size="sm">
      {DIAGNOSTIC_MESSAGES.neverSeen}
    </Text>
  );

const edgeColumns: DataTableColumn<DiagnosticEdgeServer>[] = [
  { id: 'name', header: 'Edge server', width: 260, cell: (edge) => edge.name },
  { id: 'type', header: 'Type', width: 120, cell: (edge) => edge.type },
  {
    id: 'connected',
    header: 'Connection',
    width: 150,
    cell: (edge) =>
      edge.connected ? (
        <StateBadge state="ok" label="connected" />
      ) : (
        <StateBadge state="warning" label="not connected" />
      ),
  },
  { id: 'lastSeen', header: 'Last seen', width: 200, cell: (edge) => <LastSeen iso={edge.lastSeen} /> },
];

export const EdgeServersTable = ({ edges }: { edges: Diagnostics['edgeServers'] }) => (
  <Stack gap="xs">
    <Text size="sm" data-testid="edge-summary">
      {edges.connected} of {edges.total} connected
    </Text>
    <DataTable
      entities="edge servers"
      rows={edges.servers}
      total={edges.total}
      getRowId={(edge) => String(edge.id)}
      columns={edgeColumns}
      emptyText={DIAGNOSTIC_MESSAGES.noEdgeServers}
      height={360}
    />
  </Stack>
);
