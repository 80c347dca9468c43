import {
  ActionIcon,
  Button,
  Group,
  Loader,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  type Account,
  type AccountRole,
  errorWhile,
  MAX_PAGE_LIMIT,
  MSG_ALREADY_INVITED,
  MSG_ALREADY_ROLE,
  MSG_USER_ALREADY_LINKED,
  MSG_USER_SEARCH_FAILED,
  MSG_USER_UPDATES_COMPLETED,
  ROLE_EDITOR,
  USER_SEARCH_MIN_CHARS,
  type User,
} from '@media/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { z } from 'zod';
import {
  accountUsersKey,
  createInvites,
  invitesKey,
  saveAccess,
  searchUsers,
  useAccountUsers,
  useInvites,
} from '../../api/account-access.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { AUTOCOMPLETE_DEBOUNCE_MS } from '../../ui/DebouncedAutocomplete.tsx';
import { notify } from '../../ui/notify.tsx';

type Pending = { key: string; label: string; email: string; userId?: number; roleId: number };

const isEmail = (text: string) => z.email().safeParse(text).success;

/**
 * spec1 §2 / §5 Add users to an account: search users from 2 characters (or type an email to invite),
 * suggestions already linked or invited are shown disabled, every addition defaults to the Editor role.
 */
export const AddUsersDialog = (props: {
  account: Account;
  roles: AccountRole[];
  admin: boolean;
  opened: boolean;
  onClose: () => void;
}) => {
  const { account, roles } = props;
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text.trim(), AUTOCOMPLETE_DEBOUNCE_MS);
  const [pending, setPending] = useState<Pending[]>([]);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const linked = useAccountUsers(account.id, { offset: 0, limit: MAX_PAGE_LIMIT });
  const invited = useInvites(account.id, { offset: 0, limit: MAX_PAGE_LIMIT });
  const suggestions = useQuery({
    queryKey: ['users', 'search', props.admin, account.siteId, debounced],
    queryFn: () => searchUsers(debounced, { admin: props.admin, siteId: account.siteId }),
    enabled: props.opened && debounced.length >= USER_SEARCH_MIN_CHARS,
  });
  const editorRole = roles.find((r) => r.name === ROLE_EDITOR) ?? roles.find((r) => !r.isManager);
  const roleOptions = roles.filter((r) => !r.isManager).map((r) => ({ value: String(r.id), label: r.name }));
  const roleName = (id: number) => roles.find((r) => r.id === id)?.name ?? '';

  /** Why a user cannot be added, shown beside the suggestion; undefined when they can. */
  const blockedReason = (user: Pick<User, 'id' | 'email'>) => {
    const access = linked.data?.results.find((u) => u.id === user.id);
    if (access) return MSG_ALREADY_ROLE(roleName(access.roleId));
    if (invited.data?.results.some((i) => i.email.toLowerCase() === user.email.toLowerCase()))
      return MSG_ALREADY_INVITED;
    if (pending.some((p) => p.userId === user.id)) return 'already in the list';
    return undefined;
  };

  const addUser = (user: User) => {
    if (!editorRole || blockedReason(user)) return;
    setPending([
      ...pending,
      { key: `u${user.id}`, label: user.username, email: user.email, userId: user.id, roleId: editorRole.id },
    ]);
    setText('');
    setError(undefined);
  };

  const submitText = (event: FormEvent) => {
    event.preventDefault();
    const typed = text.trim();
    if (!typed || !editorRole) return;
    const match = suggestions.data?.find(
      (u) =>
        u.username === typed ||
        u.fullname.toLowerCase() === typed.toLowerCase() ||
        u.email.toLowerCase() === typed.toLowerCase(),
    );
    if (match) {
      if (linked.data?.results.some((u) => u.id === match.id)) return setError(MSG_USER_ALREADY_LINKED);
      const reason = blockedReason(match);
      if (reason) return setError(reason);
      return addUser(match);
    }
    if (
      linked.data?.results.some((u) => u.username === typed || u.email.toLowerCase() === typed.toLowerCase())
    )
      return setError(MSG_USER_ALREADY_LINKED);
    if (!isEmail(typed)) return setError('Choose a user from the list, or type an email address to invite');
    if (invited.data?.results.some((i) => i.email.toLowerCase() === typed.toLowerCase()))
      return setError(MSG_ALREADY_INVITED);
    if (pending.some((p) => p.email.toLowerCase() === typed.toLowerCase()))
      return setError('already in the list');
    setPending([...pending, { key: `e${typed}`, label: typed, email: typed, roleId: editorRole.id }]);
    setText('');
    setError(undefined);
  };

  const close = () => {
    setPending([]);
    setText('');
    setError(undefined);
    props.onClose();
  };

  const save = async () => {
    setSaving(true);
    try {
      const users = pending.filter((p) => p.userId !== undefined);
      const emails = pending.filter((p) => p.userId === undefined);
      if (users.length)
        await saveAccess(
          account.id,
          users.map((p) => ({ userId: p.userId as number, roleId: p.roleId })),
        );
      if (emails.length)
        await createInvites(
          account.id,
          emails.map((p) => ({ email: p.email, roleId: p.roleId })),
        );
      notify({ type: 'success', text: MSG_USER_UPDATES_COMPLETED });
      await queryClient.invalidateQueries({ queryKey: accountUsersKey(account.id) });
      await queryClient.invalidateQueries({ queryKey: invitesKey(account.id) });
      close();
    } catch (failure) {
      showAlert({
        type: 'danger',
        text: errorWhile(failure, 'updating users'),
        source: 'add-users',
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened={props.opened} onClose={close} title="Add users to the account" size="lg" centered>
      <Stack>
        <form noValidate onSubmit={submitText}>
          <TextInput
            label="User name, full name or email"
            description="Type at least 2 characters to search, or an email address to invite someone new. Press Enter to add."
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setError(undefined);
            }}
            error={error}
            rightSection={suggestions.isFetching ? <Loader size="xs" /> : undefined}
            data-autofocus
          />
        </form>
        {suggestions.error && (
          <Text c="red" size="sm">
            {MSG_USER_SEARCH_FAILED}
          </Text>
        )}
        {debounced.length >= USER_SEARCH_MIN_CHARS && suggestions.data && (
          <Stack gap={2} role="listbox" aria-label="Suggested users">
            {suggestions.data.length === 0 && (
              <Text size="sm" c="dimmed">
                No user matches{isEmail(debounced) ? ': press Enter to invite this address' : ''}
              </Text>
            )}
            {suggestions.data.map((user) => {
              const reason = blockedReason(user);
              return (
                <UnstyledButton
                  key={user.id}
                  role="option"
                  aria-disabled={reason !== undefined}
                  disabled={reason !== undefined}
                  onClick={() => addUser(user)}
                  px="xs"
                  py={4}
                  style={{ opacity: reason ? 0.5 : 1, cursor: reason ? 'not-allowed' : 'pointer' }}
                >
                  <Group justify="space-between" wrap="nowrap">
                    <Text size="sm">
                      {user.username} — {user.fullname} ({user.email})
                    </Text>
                    {reason && (
                      <Text size="xs" c="dimmed">
                        {reason}
                      </Text>
                    )}
                  </Group>
                </UnstyledButton>
              );
            })}
          </Stack>
        )}
        <Table aria-label="Users to add">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>To add</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pending.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={3}>
                  <Text size="sm" c="dimmed">
                    Nobody yet
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              pending.map((p) => (
                <Table.Tr key={p.key}>
                  <Table.Td>
                    {p.label}
                    {p.userId === undefined && (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        (invite)
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Select
                      size="xs"
                      aria-label={`Role of ${p.label}`}
                      data={roleOptions}
                      value={String(p.roleId)}
                      allowDeselect={false}
                      onChange={(value) =>
                        value &&
                        setPending(
                          pending.map((q) => (q.key === p.key ? { ...q, roleId: Number(value) } : q)),
                        )
                      }
                    />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove ${p.label} from the list`}
                      onClick={() => setPending(pending.filter((q) => q.key !== p.key))}
                    >
                      ×
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={saving}>
            Discard Changes
          </Button>
          <Button onClick={save} disabled={pending.length === 0} loading={saving}>
            Save Changes
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
};
