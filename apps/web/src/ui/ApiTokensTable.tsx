import { Alert, Code, Table } from '@mantine/core';
import { type ApiToken, type ApiTokenScope, formatDateTime } from '@media/contract';
import type { UseMutationResult } from '@tanstack/react-query';
import { confirmDialog } from './dialogs.tsx';
import { RowDangerButton } from './RowDangerButton.tsx';

const SCOPE_NAMES: Record<ApiTokenScope, string> = { read: 'Read', write: 'Write' };

const when = (iso: string | null, none: string) => (iso ? formatDateTime(new Date(iso)) : none);

/**
 * API tokens listed without the token itself (name, scope, prefix, created, last used, expires), each with
 * Revoke behind a confirmation: the user's own (their settings) or another user's (administrators).
 */
export const ApiTokensTable = ({
  tokens,
  revoke,
  owner,
  testId = 'api-tokens',
}: {
  tokens: ApiToken[];
  /** Revokes a token by its id. */
  revoke: UseMutationResult<unknown, Error, number>;
  /** Whose tokens they are, when not the signed-in user's. */
  owner?: string;
  testId?: string;
}) => {
  const ask = async (token: ApiToken) => {
    const confirmed = await confirmDialog({
      title: 'Revoke API token',
      subtitle: owner ? `Revoke "${token.name}" of ${owner}?` : `Revoke "${token.name}"?`,
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
        <Table striped data-testid={testId}>
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
                  <RowDangerButton
                    label="Revoke"
                    ariaLabel={`Revoke ${token.name}`}
                    busy={revoke.isPending && revoke.variables === token.id}
                    onClick={() => void ask(token)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
};
