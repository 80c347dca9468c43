import { Alert, Button, Code, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import {
  API_TOKEN_NAME_MAX,
  type ApiToken,
  type ApiTokenScope,
  formatDateTime,
  MSG_API_TOKEN_CREATED,
} from '@media/contract';
import { type FormEvent, useState } from 'react';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../../api/api-tokens.ts';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { SecretShownOnce } from '../../ui/SecretShownOnce.tsx';

const SCOPE_OPTIONS: { value: ApiTokenScope; label: string }[] = [
  { value: 'read', label: 'Read: look only (GET requests)' },
  { value: 'write', label: 'Write: everything you may do' },
];
const SCOPE_NAMES: Record<ApiTokenScope, string> = { read: 'Read', write: 'Write' };

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a new token works: days, or until revoked. */
const EXPIRY_OPTIONS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Until revoked' },
];

const when = (iso: string | null, none: string) => (iso ? formatDateTime(new Date(iso)) : none);

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

const TokenRows = ({ tokens }: { tokens: ApiToken[] }) => {
  const revoke = useRevokeApiToken();
  const ask = async (token: ApiToken) => {
    const confirmed = await confirmDialog({
      title: 'Revoke API token',
      subtitle: `Revoke "${token.name}"?`,
      message: 'Scripts and systems that use it are refused from their next request. This cannot be undone.',
      confirmLabel: 'Revoke',
      danger: true,
    });
    if (confirmed) revoke.mutate(token.id);
  };
  return (
    <>
      {revoke.error && (
        <Alert color="red" role="alert">
          {revoke.error.message}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="api-tokens">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Scope</Table.Th>
              <Table.Th>Token</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.map((token) => (
              <Table.Tr key={token.id}>
                <Table.Td>{token.name}</Table.Td>
                <Table.Td>{SCOPE_NAMES[token.scope]}</Table.Td>
                <Table.Td>
                  <Code>{token.prefix}…</Code>
                </Table.Td>
                <Table.Td>{when(token.createdAt, '')}</Table.Td>
                <Table.Td>{when(token.lastUsedAt, 'Never')}</Table.Td>
                <Table.Td>{when(token.expiresAt, 'Never')}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    color="red"
                    variant="subtle"
                    aria-label={`Revoke ${token.name}`}
                    loading={revoke.isPending && revoke.variables === token.id}
                    onClick={() => void ask(token)}
                  >
                    Revoke
                  </Button>
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
 * The signed-in user's API tokens (issue 32): scripts and other systems act as the user with one, in the
 * Authorization header. Listed without the token; a new one is shown once.
 */
export const ApiTokensSection = () => {
  const tokens = useApiTokens();
  const create = useCreateApiToken();
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
        <TokenRows tokens={tokens.data} />
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
