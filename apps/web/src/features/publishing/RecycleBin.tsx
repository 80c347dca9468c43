import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { formatTableDate, type RecycledButton } from '@media/contract';
import { useState } from 'react';
import { type PublishContext, useRecycleBin, useRecycleBinAction } from '../../api/publishing.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';

/**
 * The Recycle Bin of a context's publishing buttons (managers): a trashed button with the published items it
 * took with it can be restored, together, or purged for good after a confirmation.
 */
export const RecycleBin = ({ ctx }: { ctx: PublishContext }) => {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Recycle Bin
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Recycle Bin" size="lg">
        <RecycleBinList ctx={ctx} />
      </Modal>
    </>
  );
};

const RecycleBinList = ({ ctx }: { ctx: PublishContext }) => {
  const bin = useRecycleBin(ctx, true);
  const act = useRecycleBinAction(ctx);
  const run = async (button: RecycledButton, action: 'restore' | 'purge') => {
    if (
      action === 'purge' &&
      !(await confirmDialog({
        title: `Purge ${button.name}`,
        message: `${button.name} and its ${button.publishedItems} published items will be deleted for good.`,
        confirmLabel: 'Purge',
        cancelLabel: 'Cancel',
        danger: true,
      }))
    )
      return;
    try {
      await act.mutateAsync({ id: button.id, action });
      showAlert({
        type: 'success',
        text: action === 'restore' ? `${button.name} restored` : `${button.name} purged`,
        source: 'publishing',
      });
    } catch (error) {
      showAlert({ type: 'danger', text: (error as Error).message, source: 'publishing' });
    }
  };
  // A few rows in a dialog: the columns are made again each render rather than memoised.
  const columns: DataTableColumn<RecycledButton>[] = [
    { id: 'name', header: 'Button', width: 200, cell: (button) => button.name },
    {
      id: 'trashed',
      header: 'Deleted',
      width: 150,
      cell: (button) => formatTableDate(new Date(button.trashedTime)),
    },
    { id: 'items', header: 'Published items', width: 120, cell: (button) => button.publishedItems },
    {
      id: 'actions',
      header: '',
      width: 170,
      cell: (button) => (
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="light" onClick={() => void run(button, 'restore')}>
            Restore
          </Button>
          <Button size="compact-xs" variant="subtle" color="red" onClick={() => void run(button, 'purge')}>
            Purge
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Deleted publishing buttons keep their published items here until they are restored or purged.
      </Text>
      <DataTable
        entities="deleted publishing buttons"
        rows={bin.data ?? []}
        total={bin.data?.length ?? 0}
        getRowId={(button) => String(button.id)}
        columns={columns}
        loading={bin.isPending}
        error={bin.error?.message ?? null}
        emptyText="The Recycle Bin is empty"
        height={320}
      />
    </Stack>
  );
};
