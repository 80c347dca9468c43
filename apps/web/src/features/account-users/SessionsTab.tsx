import { Badge, Button, Group, Stack } from '@mantine/core';
import {
  type Account,
  type AccountSession,
  errorText,
  formatDateTime,
  MSG_DISCONNECT_FAILED,
  MSG_DISCONNECTED,
  type PageWindow,
} from '@media/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { disconnectSession, sessionsKey, useSessions } from '../../api/account-access.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { MarkableTable } from '../../ui/MarkableTable.tsx';
import { notify } from '../../ui/notify.tsx';
import { ForceDisconnectDialog } from './ForceDisconnectDialog.tsx';

/** spec1 §2 Sessions: signed-in sessions of the account's users; selected ones are disconnected with a message. */
export const SessionsTab = (props: { account: Account }) => {
  const { account } = props;
  const [window, setWindow] = useState<PageWindow>({ startIndex: 0, pageSize: 100 });
  const sessions = useSessions(account.id, { offset: window.startIndex, limit: window.pageSize || 10_000 });
  useLiveRefresh(sessions.data?.channel, sessionsKey(account.id));
  const [marked, setMarked] = useState<Set<string>>(new Set());
  const [dialogFor, setDialogFor] = useState<AccountSession[]>([]);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const rows = sessions.data?.results ?? [];

  const disconnect = async (message: string) => {
    setBusy(true);
    for (const session of dialogFor) {
      try {
        await disconnectSession(account.id, session.sessionId, message);
        notify({ type: 'success', text: MSG_DISCONNECTED(session.username) });
      } catch {
        notify({ type: 'danger', text: MSG_DISCONNECT_FAILED(session.username) });
      }
    }
    setBusy(false);
    setDialogFor([]);
    setMarked(new Set());
    await queryClient.invalidateQueries({ queryKey: sessionsKey(account.id) });
  };

  return (
    <Stack>
      <MarkableTable<AccountSession>
        entities="sessions"
        rows={rows}
        total={sessions.data?.total ?? 0}
        getRowId={(s) => s.sessionId}
        rowLabel={(s) => `${s.username} (${s.ip})`}
        markHeader="Select"
        marked={marked}
        onMarkedChange={setMarked}
        window={window}
        onWindowChange={setWindow}
        loading={sessions.isFetching}
        error={sessions.error ? errorText(sessions.error) : null}
        emptyText="Nobody is signed in"
        columns={[
          { id: 'username', header: 'Username', cell: (s) => s.username },
          { id: 'ip', header: 'IP', cell: (s) => s.ip },
          {
            id: 'status',
            header: 'Status',
            cell: (s) => (
              <Badge variant="light" color={s.status === 'active' ? 'green' : 'gray'}>
                {s.status}
              </Badge>
            ),
          },
          { id: 'from', header: 'From', cell: (s) => formatDateTime(new Date(s.openedtime)) },
          {
            id: 'action',
            header: '',
            cell: (s) => (
              <Button size="compact-xs" variant="light" color="red" onClick={() => setDialogFor([s])}>
                Disconnect
              </Button>
            ),
          },
        ]}
      />
      <Group>
        <Button
          color="red"
          disabled={marked.size === 0}
          onClick={() => setDialogFor(rows.filter((s) => marked.has(s.sessionId)))}
        >
          Disconnect selected
        </Button>
        <Button variant="default" disabled={marked.size === 0} onClick={() => setMarked(new Set())}>
          Discard Changes
        </Button>
      </Group>
      <ForceDisconnectDialog
        names={dialogFor.map((s) => s.username)}
        opened={dialogFor.length > 0}
        busy={busy}
        onClose={() => setDialogFor([])}
        onDisconnect={disconnect}
      />
    </Stack>
  );
};
