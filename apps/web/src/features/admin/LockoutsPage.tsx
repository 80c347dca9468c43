import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { formatTableDate, type Lockout, type PageWindow } from '@media/contract';
import { useState } from 'react';
import { useLiveRefresh } from '../../api/live.ts';
import { LOCKOUTS_QUERY_KEY, type LockoutSort, useLiftLockouts, useLockouts } from '../../api/lockouts.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';

const lockId = (lock: Pick<Lockout, 'kind' | 'key'>) => `${lock.kind}:${lock.key}`;

const columns: DataTableColumn<Lockout>[] = [
  {
    id: 'kind',
    header: 'Locked',
    sortable: true,
    width: 120,
    cell: (l) => <Badge variant="light">{l.kind === 'user' ? 'user name' : 'address'}</Badge>,
  },
  { id: 'key', header: 'User name or address', sortable: true, width: 260, cell: (l) => l.key },
  { id: 'failures', header: 'Failed attempts', sortable: true, width: 150, cell: (l) => l.failures },
  {
    id: 'lockedUntil',
    header: 'Locked until',
    sortable: true,
    optional: true,
    width: 220,
    cell: (l) => formatTableDate(new Date(l.lockedUntil)),
  },
];

/** Administrators see who is locked out of sign-in and lift locks before they end by themselves. */
export const LockoutsPage = () => {
  const [window, setWindow] = useState<PageWindow>({ startIndex: 0, pageSize: 20 });
  const [sort, setSort] = useState<LockoutSort>({ id: 'lockedUntil', desc: false });
  const [selected, setSelected] = useState<string[]>([]);
  const lockouts = useLockouts(window, sort);
  const lift = useLiftLockouts();
  useLiveRefresh(lockouts.data?.channel, LOCKOUTS_QUERY_KEY);
  const rows = lockouts.data?.results ?? [];

  const liftSelected = async () => {
    const locks = rows.filter((row) => selected.includes(lockId(row)));
    const confirmed = await confirmDialog({
      title: 'Lift lock-outs',
      message: `Lift ${locks.length} lock-out${locks.length === 1 ? '' : 's'}? Sign-in opens again at once.`,
      confirmLabel: 'Lift',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await lift.mutateAsync(locks);
      showAlert({
        type: 'success',
        text: `Lifted ${locks.length} lock-out${locks.length === 1 ? '' : 's'}`,
        source: 'lockouts',
      });
      setSelected([]);
    } catch (error) {
      showAlert({
        type: 'danger',
        text: `Unable to lift lock-outs - ${error instanceof Error ? error.message : String(error)}`,
        source: 'lockouts',
      });
    }
  };

  return (
    <Stack>
      <Group justify="space-between">
        <div>
          <Title order={2}>Sign-in lock-outs</Title>
          <Text c="dimmed" size="sm">
            User names and addresses locked after repeated failed sign-ins.
          </Text>
        </div>
        <Button
          color="red"
          variant="light"
          disabled={selected.length === 0}
          loading={lift.isPending}
          onClick={liftSelected}
        >
          Lift selected
        </Button>
      </Group>
      <DataTable
        entities="lock-outs"
        rows={rows}
        total={lockouts.data?.total ?? 0}
        getRowId={lockId}
        columns={columns}
        loading={lockouts.isFetching}
        error={lockouts.error?.message}
        emptyText="Nobody is locked out"
        sort={sort}
        onSortChange={(next) =>
          setSort(
            next ? { id: next.id as LockoutSort['id'], desc: next.desc } : { id: 'lockedUntil', desc: false },
          )
        }
        selectedIds={selected}
        onSelectionChange={setSelected}
        window={window}
        onWindowChange={(next) => {
          setWindow(next);
          setSelected([]);
        }}
        resizable
      />
    </Stack>
  );
};
