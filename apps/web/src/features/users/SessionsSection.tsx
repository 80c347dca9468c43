import { Alert, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { formatTableDate, type OwnSession } from '@media/contract';
import { useEndOtherOwnSessions, useEndOwnSession, useOwnSessions } from '../../api/sessions.ts';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { notify } from '../../ui/notify.tsx';
import { RowDangerButton } from '../../ui/RowDangerButton.tsx';

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

const SessionRows = ({ sessions }: { sessions: OwnSession[] }) => {
  const end = useEndOwnSession();
  const ask = async (session: OwnSession) => {
    const confirmed = await confirmDialog({
      title: 'End session',
      subtitle: `End the session of ${session.device} at ${session.ip}?`,
      message: 'That browser is signed out at its next request.',
      confirmLabel: 'End',
      danger: true,
    });
    if (!confirmed) return;
    end.mutate(session.id, { onSuccess: () => notify({ type: 'success', text: 'The session was ended' }) });
  };
  return (
    <>
      {end.error && (
        <Alert color="red" role="alert">
          {end.error.message}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="sessions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Device</Table.Th>
              <Table.Th>Address</Table.Th>
              <Table.Th>Started</Table.Th>
              <Table.Th>Last seen</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sessions.map((session) => (
              <Table.Tr key={session.id}>
                <Table.Td>
                  <Group gap={6}>
                    {session.device}
                    {session.current && (
                      <Badge color="teal" variant="light" style={{ flexShrink: 0 }}>
                        This session
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{session.ip}</Table.Td>
                <Table.Td style={NO_WRAP}>{formatTableDate(new Date(session.startedAt))}</Table.Td>
                <Table.Td style={NO_WRAP}>{formatTableDate(new Date(session.lastSeenAt))}</Table.Td>
                <Table.Td>
                  {!session.current && (
                    <RowDangerButton
                      label="End"
                      ariaLabel={`End the session of ${session.device} at ${session.ip}`}
                      busy={end.isPending && end.variables === session.id}
                      onClick={() => void ask(session)}
                    />
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
};

/**
 * Where the signed-in user is signed in (issue 32, ASVS V7): each browser's session with its device, address
 * and times; the others can be ended one by one or all at once.
 */
export const SessionsSection = () => {
  const sessions = useOwnSessions();
  const endOthers = useEndOtherOwnSessions();
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;

  const askEndOthers = async () => {
    const confirmed = await confirmDialog({
      title: 'End all other sessions',
      subtitle: `End ${plural(others, 'other session')}?`,
      message:
        'Every other browser signed in as you is signed out at its next request. This one stays signed in.',
      confirmLabel: 'End all other sessions',
      danger: true,
    });
    if (!confirmed) return;
    endOthers.mutate(undefined, {
      onSuccess: ({ ended }) => notify({ type: 'success', text: `Ended ${plural(ended, 'other session')}` }),
    });
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        The browsers signed in as you. End a session you do not recognise, then change your password.
      </Text>
      {sessions.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : sessions.isError ? (
        <Alert color="red" role="alert">
          Could not load your sessions: {sessions.error.message}
        </Alert>
      ) : (
        <>
          <SessionRows sessions={sessions.data} />
          {others === 0 ? (
            <Text size="sm" data-testid="sessions-only-this">
              You are signed in only in this session.
            </Text>
          ) : (
            <Group>
              <Button
                color="red"
                variant="light"
                loading={endOthers.isPending}
                onClick={() => void askEndOthers()}
              >
                End all other sessions
              </Button>
            </Group>
          )}
          {endOthers.error && (
            <Alert color="red" role="alert">
              {endOthers.error.message}
            </Alert>
          )}
        </>
      )}
    </Stack>
  );
};
