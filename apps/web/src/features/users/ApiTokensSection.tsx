import { Alert, Button, Code, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { API_TOKEN_NAME_MAX, type ApiTokenScope, MSG_API_TOKEN_CREATED } from '@media/contract';
import { type FormEvent, useState } from 'react';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../../api/api-tokens.ts';
import { ApiTokensTable } from '../../ui/ApiTokensTable.tsx';
import { SecretShownOnce } from '../../ui/SecretShownOnce.tsx';

const SCOPE_OPTIONS: { value: ApiTokenScope; label: string }[] = [
  { value: 'read', label: 'Read: look only (GET requests)' },
  { value: 'write', label: 'Write: everything you may do' },
];

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a new token works: days, or until revoked. */
const EXPIRY_OPTIONS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Until revoked' },
];

/** The token just made: shown this once, with a copy button and what it means to hold it. */
const NewToken = ({ token, onDone }: { token: string; onDone: () => void }) => (
  <SecretShownOnce
    title="Your new API token"
    message={MSG_API_TOKEN_CREATED}
    secret={token}
    testId="new-api-token"
    dismissLabel="Done"
    onDismiss={onDone}
  >
    <Text size="xs" c="dimmed">
      Send it in the Authorization header: <Code>Authorization: Bearer {token.slice(0, 8)}…</Code>
    </Text>
  </SecretShownOnce>
);

/**
 * The signed-in user's API tokens (issue 32): scripts and other systems act as the user with one, in the
 * Authorization header. Listed without the token; a new one is shown once.
 */
export const ApiTokensSection = () => {
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiTokenScope>('read');
  const [expiry, setExpiry] = useState('90');
  const [shown, setShown] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const made = await create.mutateAsync({
      name: name.trim(),
      scope,
      expiresAt: expiry === 'never' ? null : new Date(Date.now() + Number(expiry) * DAY_MS).toISOString(),
    });
    setShown(made.token);
    setName('');
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        A token lets a script or another system (a newsroom, an archive) use the API as you, with your rights
        at the time it is used.
      </Text>
      {shown && <NewToken token={shown} onDone={() => setShown(undefined)} />}
      {tokens.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : tokens.isError ? (
        <Alert color="red" role="alert">
          Could not load your API tokens: {tokens.error.message}
        </Alert>
      ) : tokens.data.length === 0 ? (
        <Text size="sm" data-testid="api-tokens-empty">
          You have no API tokens.
        </Text>
      ) : (
        <ApiTokensTable tokens={tokens.data} revoke={revoke} />
      )}
      <form noValidate onSubmit={(event) => void submit(event).catch(() => {})}>
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Token name"
            placeholder="Newsroom sync"
            value={name}
            maxLength={API_TOKEN_NAME_MAX}
            onChange={(event) => setName(event.currentTarget.value)}
            w={220}
          />
          <Select
            label="Scope"
            data={SCOPE_OPTIONS}
            value={scope}
            allowDeselect={false}
            onChange={(value) => value && setScope(value as ApiTokenScope)}
            w={260}
          />
          <Select
            label="Expires after"
            data={EXPIRY_OPTIONS}
            value={expiry}
            allowDeselect={false}
            onChange={(value) => value && setExpiry(value)}
            w={150}
          />
          <Button type="submit" disabled={!name.trim()} loading={create.isPending}>
            Create token
          </Button>
        </Group>
      </form>
      {create.error && (
        <Alert color="red" role="alert">
          {create.error.message}
        </Alert>
      )}
    </Stack>
  );
};
