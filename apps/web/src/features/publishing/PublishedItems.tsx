import { Alert, Badge, Button, Code, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { formatTableDate, type Publish, type PublishStatus, publishHelpLink } from '@media/contract';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useButtonPublishes, useRepublish } from '../../api/publishing.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';

const STATUS_COLORS: Record<PublishStatus, string> = {
  queued: 'blue',
  running: 'cyan',
  done: 'teal',
  failed: 'red',
  deleted: 'gray',
};

const when = (time: string | null) => (time ? formatTableDate(new Date(time)) : '');

/** A published item's status, with its percent while it runs. */
export const PublishStatusBadge = ({ item }: { item: Pick<Publish, 'status' | 'progress'> }) => (
  <Badge color={STATUS_COLORS[item.status]} variant="light">
    {item.status === 'running' && item.progress !== null ? `running ${item.progress}%` : item.status}
  </Badge>
);

/**
 * A button's published items (DESIGN "Publishing"): each run's status with its progress, when it ran, where
 * the result went or why it failed; a row's log below the list, and Republish. Kept live on their channel.
 */
export const PublishedItems = ({ buttonId, buttonName }: { buttonId: number; buttonName: string }) => {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="compact-xs" variant="subtle" onClick={() => setOpen(true)}>
        Published items
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={`Published items of ${buttonName}`}
        size="xl"
      >
        <PublishedItemsList buttonId={buttonId} />
      </Modal>
    </>
  );
};

export const PublishedItemsList = ({ buttonId }: { buttonId: number }) => {
  const items = useButtonPublishes(buttonId);
  const republish = useRepublish();
  const [selected, setSelected] = useState<string[]>([]);
  const rows = items.data?.results ?? [];
  const shown = rows.find((item) => String(item.id) === selected[0]);
  const columns = useMemo<DataTableColumn<Publish>[]>(
    () => [
      {
        id: 'status',
        header: 'Status',
        width: 140,
        cell: (item) => (
          <Stack gap={2}>
            <PublishStatusBadge item={item} />
            {item.status === 'running' && <Progress value={item.progress ?? 0} size="xs" />}
          </Stack>
        ),
      },
      { id: 'created', header: 'Published', width: 150, cell: (item) => when(item.createdTime) },
      { id: 'finished', header: 'Finished', width: 150, cell: (item) => when(item.finishedTime) },
      {
        id: 'result',
        header: 'Result',
        width: 320,
        cell: (item) => item.error ?? item.outputs.map((output) => output.location).join(', '),
      },
    ],
    [],
  );
  const again = async (item: Publish) => {
    try {
      await republish.mutateAsync(item.id);
      showAlert({ type: 'success', text: 'Published again', source: 'publishing' });
    } catch (error) {
      showAlert({ type: 'warning', text: (error as Error).message, source: 'publishing' });
    }
  };

  return (
    <Stack gap="sm">
      <DataTable
        entities="published items"
        rows={rows}
        total={items.data?.total ?? 0}
        getRowId={(item) => String(item.id)}
        columns={columns}
        loading={items.isPending}
        error={items.error?.message ?? null}
        emptyText="Nothing has been published with this button yet"
        selectedIds={selected}
        onSelectionChange={(ids) => setSelected(ids.slice(-1))}
        height={300}
      />
      {shown ? (
        <Stack gap="xs" aria-label="Published item log">
          <Group justify="space-between">
            <Text fw={500}>Log of item {shown.id}</Text>
            <Group gap="xs">
              <Button size="xs" variant="subtle" component={Link} to={publishHelpLink(shown.id)}>
                Help
              </Button>
              <Button
                size="xs"
                variant="default"
                loading={republish.isPending}
                onClick={() => void again(shown)}
              >
                Republish
              </Button>
            </Group>
          </Group>
          {shown.error && (
            <Alert color="red" p="xs">
              {shown.error}
            </Alert>
          )}
          <Code block>{shown.log.join('\n') || 'No log yet'}</Code>
        </Stack>
      ) : (
        rows.length > 0 && (
          <Text size="sm" c="dimmed">
            Select an item to see its log and publish it again.
          </Text>
        )
      )}
    </Stack>
  );
};
