import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import {
  type Endpoint,
  formatTableDate,
  INGEST_MESSAGES,
  type PageWindow,
  UNPROCESSED_STATUS_WORDS,
} from '@media/contract';
import { useMemo, useState } from 'react';
import {
  type UnprocessedList,
  useForceFiles,
  useRescanFiles,
  useUnprocessedFiles,
} from '../../api/ingest.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';

type Row = UnprocessedList['files'][number];

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Refetches the unprocessed files when one of their channels tells of a change. */
const ChannelRefresh = ({ channel }: { channel: string }) => {
  useLiveRefresh(channel, ['ingest', 'unprocessed']);
  return null;
};

/**
 * The unprocessed files of some endpoints (status missingFiles) with Force (queue them anyway) and
 * Rescan (drop them so the endpoint looks again), for one file or the selected ones.
 */
export const UnprocessedFilesView = ({
  endpoints,
  endpointsError,
}: {
  endpoints: Pick<Endpoint, 'id' | 'name' | 'category'>[] | undefined;
  endpointsError?: string | null;
}) => {
  const sources = useMemo(() => endpoints?.filter((e) => e.category !== 'stream'), [endpoints]);
  const files = useUnprocessedFiles(sources);
  const force = useForceFiles();
  const rescan = useRescanFiles();
  const [selected, setSelected] = useState<string[]>([]);
  const [window, setWindow] = useState<PageWindow>({ startIndex: 0, pageSize: 50 });

  const doForce = async (ids: number[]) => {
    try {
      await force.mutateAsync(ids);
      setSelected([]);
    } catch (error) {
      showAlert({ type: 'danger', text: INGEST_MESSAGES.forceFailed(errorText(error)), source: 'ingest' });
    }
  };
  const doRescan = async (ids: number[]) => {
    try {
      await rescan.mutateAsync(ids);
      setSelected([]);
    } catch (error) {
      showAlert({ type: 'danger', text: INGEST_MESSAGES.rescanFailed(errorText(error)), source: 'ingest' });
    }
  };
  const busy = force.isPending || rescan.isPending;

  const columns: DataTableColumn<Row>[] = [
    { id: 'path', header: 'File', width: 320, cell: (row) => <span title={row.path}>{row.path}</span> },
    { id: 'endpoint', header: 'Endpoint', width: 170, cell: (row) => row.endpointName },
    { id: 'status', header: 'Status', width: 130, cell: (row) => UNPROCESSED_STATUS_WORDS[row.status] },
    {
      id: 'firstSeen',
      header: 'First seen',
      width: 150,
      cell: (row) => formatTableDate(new Date(row.firstSeen)),
    },
    {
      id: 'forced',
      header: 'Forced',
      width: 90,
      cell: (row) =>
        row.forced ? (
          <Badge variant="light" color="orange">
            Forced
          </Badge>
        ) : (
          '—'
        ),
    },
    {
      id: 'actions',
      header: 'Actions',
      width: 160,
      cell: (row) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="light"
            disabled={row.forced || busy}
            aria-label={`Force ${row.path}`}
            onClick={() => void doForce([row.id])}
          >
            Force
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            disabled={busy}
            aria-label={`Rescan ${row.path}`}
            onClick={() => void doRescan([row.id])}
          >
            Rescan
          </Button>
        </Group>
      ),
    },
  ];

  const all = files.data?.files ?? [];
  const size = window.pageSize || all.length || 1;
  const rows = all.slice(window.startIndex, window.startIndex + size);
  const selectedIds = selected.map(Number);
  const error = endpointsError ?? (files.error ? files.error.message : null);

  return (
    <Stack gap="sm">
      {(files.data?.channels ?? []).map((channel) => (
        <ChannelRefresh key={channel} channel={channel} />
      ))}
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Files the endpoints found but could not queue. Force queues a file as it is; Rescan makes the
          endpoint look at it again.
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            disabled={selected.length === 0 || busy}
            onClick={() => void doForce(selectedIds)}
          >
            Force selected
          </Button>
          <Button
            size="xs"
            variant="default"
            disabled={selected.length === 0 || busy}
            onClick={() => void doRescan(selectedIds)}
          >
            Rescan selected
          </Button>
        </Group>
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {INGEST_MESSAGES.fetchFailed(INGEST_MESSAGES.defaultActivity, error)}
        </Alert>
      )}
      {!error && (
        <DataTable
          entities="unprocessed files"
          rows={rows}
          total={all.length}
          getRowId={(row) => String(row.id)}
          columns={columns}
          loading={endpoints === undefined ? !error : files.isFetching}
          emptyText="No unprocessed files"
          selectedIds={selected}
          onSelectionChange={setSelected}
          window={window}
          onWindowChange={setWindow}
        />
      )}
    </Stack>
  );
};
