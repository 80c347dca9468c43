import { Anchor, Button, Checkbox, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  errorWhile,
  type Manager,
  type ManagerType,
  MSG_ALREADY_MANAGER,
  MSG_MANAGERS_UPDATED,
  MSG_NO_MANAGERS,
  MSG_USER_SEARCH_FAILED,
  MSG_USERNAME_INVALID,
  MSG_USERNAME_REQUIRED,
  matchesUserName,
  type PageWindow,
  SITE_USER_SEARCH_ROLE_NAMES,
  USER_SEARCH_MIN_CHARS,
  USERNAME_CHECK_DEBOUNCE_MS,
  type User,
} from '@media/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { searchUsers } from '../../api/account-access.ts';
import {
  addManager,
  type ManagerScope,
  managersKey,
  raiseEmailVerification,
  removeManager,
  useManagers,
} from '../../api/account-managers.ts';
import { useMe } from '../../api/auth.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { MarkableTable } from '../../ui/MarkableTable.tsx';
import { notify } from '../../ui/notify.tsx';
import { SaveChangesButtons } from '../../ui/SaveChangesButtons.tsx';
import { useDirtyMark } from '../account-users/useDirtyMark.ts';

/** A row as the table edits it: verified '2' is raised in this session; `isNew` rows are not saved yet. */
type Row = Omit<Manager, 'emailverified'> & { emailverified: '0' | '1' | '2'; isNew?: boolean };

const TRUE = 'True';

/**
 * spec1 §2 / §4 / §5 / §6 Add/remove managers table for one manager type (admin, reseller, sitegroup,
 * site, account) and scope. canadd / candelete / canremoveself are the strings 'True' or 'False'.
 */
export const ManagersTable = (props: {
  type: ManagerType;
  scopeId?: number;
  roleId?: number;
  /** The manager role's name; site-user search is offered only for the names spec1 §6 lists. */
  roleName?: string;
  /** Where site-user search looks. */
  siteId?: number;
  canadd: 'True' | 'False';
  candelete: 'True' | 'False';
  canremoveself: 'True' | 'False';
}) => {
  const scope: ManagerScope = { type: props.type, scopeId: props.scopeId, roleId: props.roleId };
  const me = useMe();
  const admin = (me.data?.rights.admin.length ?? 0) > 0;
  const [window, setWindow] = useState<PageWindow>({ startIndex: 0, pageSize: 100 });
  const managers = useManagers(scope, { offset: window.startIndex, limit: window.pageSize || 10_000 });
  useLiveRefresh(managers.data?.channel, managersKey(scope));
  const queryClient = useQueryClient();
  const [added, setAdded] = useState<Row[]>([]);
  const [marked, setMarked] = useState<Set<string>>(new Set());
  const [verified, setVerified] = useState<Set<number>>(new Set());
  const [typed, setTyped] = useState('');
  const [addError, setAddError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [debounced] = useDebouncedValue(typed.trim(), USERNAME_CHECK_DEBOUNCE_MS);
  const offerSuggestions =
    admin ||
    props.roleName === undefined ||
    (SITE_USER_SEARCH_ROLE_NAMES as readonly string[]).includes(props.roleName);

  const candidates = useQuery({
    queryKey: ['users', 'search', admin, props.siteId, debounced],
    queryFn: () => searchUsers(debounced, { admin, siteId: props.siteId }),
    enabled: debounced.length >= USER_SEARCH_MIN_CHARS,
  });
  const dirty = added.length > 0 || marked.size > 0 || verified.size > 0;
  useDirtyMark(`managers-${props.type}-${props.scopeId ?? 0}`, dirty);

  const serverRows: Row[] = managers.data?.results ?? [];
  const rows: Row[] = [
    ...serverRows.map((row) => (verified.has(row.id) ? { ...row, emailverified: '2' as const } : row)),
    ...added,
  ];
  const isManager = (userId: number) => rows.some((row) => row.id === userId);

  // The current user is always among the suggestions (spec1 §5).
  const suggestions: Pick<User, 'id' | 'username' | 'fullname' | 'email' | 'emailverified'>[] = [];
  if (me.data && typed.trim().length >= USER_SEARCH_MIN_CHARS) suggestions.push(me.data);
  const searching = offerSuggestions && typed.trim().length >= USER_SEARCH_MIN_CHARS;
  for (const user of searching ? (candidates.data ?? []) : [])
    if (!suggestions.some((s) => s.id === user.id)) suggestions.push(user);

  /** The user the typed text names, once the 200 ms check has run; the spec's messages otherwise. */
  const resolveTyped = (): { user?: User; error?: string } => {
    const text = typed.trim();
    if (!text) return { error: MSG_USERNAME_REQUIRED };
    const pool = [...(candidates.data ?? []), ...(me.data ? [me.data as unknown as User] : [])];
    const user = debounced === text ? pool.find((u) => matchesUserName(text, u)) : undefined;
    if (!user) return { error: MSG_USERNAME_INVALID };
    if (isManager(user.id)) return { error: MSG_ALREADY_MANAGER };
    return { user };
  };
  const typedProblem =
    typed.trim() && debounced === typed.trim() && !candidates.isFetching ? resolveTyped().error : undefined;

  const add = (user: Pick<User, 'id' | 'username' | 'fullname' | 'email' | 'emailverified'>) => {
    if (isManager(user.id)) return setAddError(MSG_ALREADY_MANAGER);
    setAdded([
      ...added,
      {
        id: user.id,
        username: user.username,
        fullname: user.fullname,
        email: user.email,
        emailverified: user.emailverified ? '1' : '0',
        roleId: props.roleId ?? null,
        rolename: props.roleName ?? null,
        isNew: true,
      },
    ]);
    setTyped('');
    setAddError(undefined);
  };
  const submitAdd = (event: FormEvent) => {
    event.preventDefault();
    const { user, error } = resolveTyped();
    if (user) add(user);
    else setAddError(error);
  };

  const onMarkedChange = (next: Set<string>) => {
    // Deleting a new row just takes it out of the list.
    const dropped = added.filter((row) => next.has(String(row.id)));
    if (dropped.length) {
      setAdded(added.filter((row) => !next.has(String(row.id))));
      for (const row of dropped) next.delete(String(row.id));
    }
    setMarked(next);
  };

  const discard = () => {
    setAdded([]);
    setMarked(new Set());
    setVerified(new Set());
    setTyped('');
    setAddError(undefined);
  };

  const update = async () => {
    setSaving(true);
    try {
      for (const row of added) await addManager(scope, row.id);
      for (const id of marked) await removeManager(scope, Number(id));
      for (const id of verified) if (!marked.has(String(id))) await raiseEmailVerification(id);
      notify({ type: 'success', text: MSG_MANAGERS_UPDATED(props.type) });
      discard();
    } catch (error) {
      showAlert({
        type: 'danger',
        text: errorWhile(error, 'updating managers'),
        source: 'managers',
      });
    } finally {
      setSaving(false);
      await queryClient.invalidateQueries({ queryKey: managersKey(scope) });
    }
  };

  const canDelete = props.candelete === TRUE;
  return (
    <Stack>
      <MarkableTable<Row>
        entities="managers"
        rows={rows}
        total={(managers.data?.total ?? 0) + added.length}
        getRowId={(row) => String(row.id)}
        rowLabel={(row) => row.username}
        canMark={(row) =>
          row.isNew === true || (canDelete && (props.canremoveself === TRUE || row.id !== me.data?.id))
        }
        marked={marked}
        onMarkedChange={onMarkedChange}
        window={window}
        onWindowChange={setWindow}
        loading={managers.isFetching || saving}
        error={managers.error ? errorWhile(managers.error, 'loading managers') : null}
        emptyText={MSG_NO_MANAGERS}
        columns={[
          {
            id: 'username',
            header: 'Username',
            cell: (row) => (
              <>
                {row.username}
                {row.isNew && (
                  <Text span size="xs" c="teal">
                    {' '}
                    new
                  </Text>
                )}
              </>
            ),
          },
          { id: 'fullname', header: 'Full name', cell: (row) => row.fullname },
          {
            id: 'email',
            header: 'Email',
            cell: (row) => (row.email ? <Anchor href={`mailto:${row.email}`}>{row.email}</Anchor> : ''),
          },
          {
            id: 'verified',
            header: 'Verified',
            cell: (row, isMarked) => (
              <Checkbox
                aria-label={`Email of ${row.username} verified`}
                checked={row.emailverified !== '0'}
                // Verification can only be raised, never unset (spec1 §4).
                disabled={isMarked || row.isNew === true || row.emailverified === '1'}
                onChange={(event) => {
                  const next = new Set(verified);
                  if (event.currentTarget.checked) next.add(row.id);
                  else next.delete(row.id);
                  setVerified(next);
                }}
              />
            ),
          },
        ]}
      />
      {props.canadd === TRUE && (
        <form noValidate onSubmit={submitAdd}>
          <Group align="flex-start">
            <Stack gap={4} style={{ flex: 1, maxWidth: 420 }}>
              <TextInput
                label="Add manager"
                placeholder="User name or full name"
                value={typed}
                onChange={(event) => {
                  setTyped(event.currentTarget.value);
                  setAddError(undefined);
                }}
                error={addError ?? typedProblem}
              />
              {searching && candidates.isError && (
                <Text c="red" size="sm" role="alert">
                  {MSG_USER_SEARCH_FAILED}
                </Text>
              )}
              {suggestions.length > 0 && (
                <Stack gap={0} role="listbox" aria-label="Suggested managers">
                  {suggestions.map((user) => (
                    <UnstyledButton
                      key={user.id}
                      role="option"
                      px="xs"
                      py={2}
                      disabled={isManager(user.id)}
                      style={{ opacity: isManager(user.id) ? 0.5 : 1 }}
                      onClick={() => add(user)}
                    >
                      <Text size="sm">
                        {user.username} — {user.fullname}
                        {isManager(user.id) ? ` (${MSG_ALREADY_MANAGER})` : ''}
                      </Text>
                    </UnstyledButton>
                  ))}
                </Stack>
              )}
            </Stack>
            <Button type="submit" variant="light" mt={25}>
              Add
            </Button>
          </Group>
        </form>
      )}
      <SaveChangesButtons
        dirty={dirty}
        saving={saving}
        onSave={update}
        onDiscard={discard}
        saveLabel="Update Managers"
      />
    </Stack>
  );
};
