import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { User } from '@media/contract';
import { useState } from 'react';
import { useRevokeUserApiToken, useUserApiTokens } from '../../api/api-tokens.ts';
import { useMe } from '../../api/auth.ts';
import { useEndAllSessions, useEndUserSessions } from '../../api/sessions.ts';
import { ApiTokensTable } from '../../ui/ApiTokensTable.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { notify } from '../../ui/notify.tsx';
import { Section } from '../../ui/Section.tsx';
import { UserPicker } from './UserPicker.tsx';

const sessionCount = (count: number) => `${count} session${count === 1 ? '' : 's'}`;

/** Everyone's sessions ended at once, but the administrator's own. */
const EndEveryonesSessions = () => {
  const endAll = useEndAllSessions();
  const ask = async () => {
    const confirmed = await confirmDialog({
      title: "End everyone's sessions",
      subtitle: 'Sign everyone out?',
      message:
        'Every user, in every browser, is signed out at their next request and must sign in again. You stay signed in in this session.',
      confirmLabel: "End everyone's sessions",
      danger: true,
    });
    if (!confirmed) return;
    endAll.mutate(undefined, {
      onSuccess: ({ ended }) => notify({ type: 'success', text: `Ended ${sessionCount(ended)}` }),
    });
  };
  return (
    <Stack gap="sm" align="flex-start">
      <Text size="sm">
        After a break-in, or before a change everyone must start afresh with. API tokens are not affected.
      </Text>
      <Button color="red" variant="light" loading={endAll.isPending} onClick={() => void ask()}>
        End everyone's sessions
      </Button>
      {endAll.isSuccess && (
        <Text size="sm" data-testid="everyone-sessions-ended">
          Ended {sessionCount(endAll.data.ended)}.
        </Text>
      )}
      {endAll.error && (
        <Alert color="red" role="alert">
          {endAll.error.message}
        </Alert>
      )}
    </Stack>
  );
};

/** One user's API tokens (revoke) and sessions (end all). */
const UserSessionsAndTokens = ({ user, isMe }: { user: User; isMe: boolean }) => {
  const tokens = useUserApiTokens(user.id);
  const revoke = useRevokeUserApiToken(user.id);
  const endSessions = useEndUserSessions();

  const askEndSessions = async () => {
    const confirmed = await confirmDialog({
      title: "End this user's sessions",
      subtitle: `Sign ${user.username} out everywhere?`,
      message: isMe
        ? 'Your other browsers are signed out at their next request. This session stays signed in.'
        : `${user.username} is signed out in every browser at the next request and must sign in again. Their API tokens keep working until revoked.`,
      confirmLabel: 'End sessions',
      danger: true,
    });
    if (!confirmed) return;
    endSessions.mutate(user.id, {
      onSuccess: ({ ended }) =>
        notify({ type: 'success', text: `Ended ${sessionCount(ended)} of ${user.username}` }),
    });
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <Title order={4}>API tokens of {user.username}</Title>
        <Button
          color="red"
          variant="light"
          loading={endSessions.isPending}
          onClick={() => void askEndSessions()}
        >
          End this user's sessions
        </Button>
      </Group>
      {endSessions.isSuccess && (
        <Text size="sm" data-testid="user-sessions-ended">
          Ended {sessionCount(endSessions.data.ended)} of {user.username}.
        </Text>
      )}
      {endSessions.error && (
        <Alert color="red" role="alert">
          {endSessions.error.message}
        </Alert>
      )}
      {tokens.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : tokens.isError ? (
        <Alert color="red" role="alert">
          Could not load the API tokens of {user.username}: {tokens.error.message}
        </Alert>
      ) : tokens.data.length === 0 ? (
        <Text size="sm" data-testid="user-api-tokens-empty">
          {user.username} has no API tokens.
        </Text>
      ) : (
        <ApiTokensTable tokens={tokens.data} revoke={revoke} owner={user.username} testId="user-api-tokens" />
      )}
    </Stack>
  );
};

/**
 * `/admin/sessions` (issue 32, ASVS V7): administrators end everyone's sessions, or one user's, and revoke a
 * user's API tokens.
 */
export const SessionsPage = () => {
  const me = useMe();
  const [user, setUser] = useState<User>();
  return (
    <Stack maw={960}>
      <div>
        <Title order={2}>Sessions and API tokens</Title>
        <Text c="dimmed" size="sm">
          Sign people out and take away the tokens their scripts use.
        </Text>
      </div>
      <Section title="Everyone" id="everyone">
        <EndEveryonesSessions />
      </Section>
      <Section title="One user" id="one-user">
        <Stack gap="md">
          <UserPicker value={user} onChange={setUser} />
          {user ? (
            <UserSessionsAndTokens key={user.id} user={user} isMe={user.id === me.data?.id} />
          ) : (
            <Text size="sm" c="dimmed" data-testid="no-user-chosen">
              Choose a user to see their API tokens and end their sessions.
            </Text>
          )}
        </Stack>
      </Section>
    </Stack>
  );
};
