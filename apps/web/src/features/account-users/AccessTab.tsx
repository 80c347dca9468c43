import { Select, Stack } from '@mantine/core';
import {
  type Account,
  type AccountRole,
  type AccountUser,
  errorText,
  errorWhile,
  MSG_USER_UPDATES_COMPLETED,
  type PageWindow,
} from '@media/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  type AccessChange,
  accountUsersKey,
  removeAccess,
  saveAccess,
  useAccountUsers,
  useEditorChoices,
} from '../../api/account-access.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { type MarkableColumn, MarkableTable } from '../../ui/MarkableTable.tsx';
import { notify } from '../../ui/notify.tsx';
import { SaveChangesButtons } from '../../ui/SaveChangesButtons.tsx';
import { useDirtyMark } from './useDirtyMark.ts';

type Edit = Omit<AccessChange, 'userId'>;

/**
 * spec1 §2 / §4 Access: the account's users with their role (and, for administrators, version and skin).
 * Changing a role, version or skin marks the row updated; ticking it marks it deleted (greyed, reversible).
 * Save sends the updates in one batch and each deletion, then reloads; Discard forgets both.
 */
export const AccessTab = (props: { account: Account; roles: AccountRole[]; admin: boolean }) => {
  const { account, roles, admin } = props;
  const [window, setWindow] = useState<PageWindow>({ startIndex: 0, pageSize: 100 });
  const users = useAccountUsers(account.id, { offset: window.startIndex, limit: window.pageSize || 10_000 });
  useLiveRefresh(users.data?.channel, accountUsersKey(account.id));
  const versions = useEditorChoices('versions', admin);
  const skins = useEditorChoices('skins', admin);
  const [edits, setEdits] = useState<Map<number, Edit>>(new Map());
  const [marked, setMarked] = useState<Set<string>>(new Set());
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const dirty = edits.size > 0 || marked.size > 0;
  useDirtyMark(`account-access-${account.id}`, dirty);

  const managerRoleIds = new Set(roles.filter((r) => r.isManager).map((r) => r.id));
  const roleOptions = roles.filter((r) => !r.isManager).map((r) => ({ value: String(r.id), label: r.name }));
  const roleName = (id: number) => roles.find((r) => r.id === id)?.name ?? `Role ${id}`;
  const current = (user: AccountUser): Edit =>
    edits.get(user.id) ?? { roleId: user.roleId, version: user.version, skin: user.skin };
  const change = (user: AccountUser, patch: Partial<Edit>) => {
    const next = new Map(edits);
    next.set(user.id, { ...current(user), ...patch });
    setEdits(next);
  };
  const discard = () => {
    setEdits(new Map());
    setMarked(new Set());
  };

  const save = async () => {
    setSaving(true);
    try {
      const updates = [...edits.entries()]
        .filter(([userId]) => !marked.has(String(userId)))
        .map(([userId, edit]) => ({
          userId,
          roleId: edit.roleId,
          ...(admin ? { version: edit.version ?? null, skin: edit.skin ?? null } : {}),
        }));
      if (updates.length) await saveAccess(account.id, updates);
      for (const id of marked) await removeAccess(account.id, Number(id));
      notify({ type: 'success', text: MSG_USER_UPDATES_COMPLETED });
      discard();
    } catch (error) {
      showAlert({
        type: 'danger',
        text: errorWhile(error, 'updating users'),
        source: 'account-users',
      });
    } finally {
      setSaving(false);
      await queryClient.invalidateQueries({ queryKey: accountUsersKey(account.id) });
    }
  };

  /** Version or skin of a user, for administrators; empty follows the account's. */
  const editorChoiceColumn = (
    field: 'version' | 'skin',
    choices: string[] | undefined,
  ): MarkableColumn<AccountUser> => ({
    id: field,
    header: field === 'version' ? 'Version' : 'Skin',
    cell: (u, isMarked) => (
      <Select
        size="xs"
        aria-label={`${field === 'version' ? 'Version' : 'Skin'} of ${u.username}`}
        placeholder="Account's"
        clearable
        data={choices ?? []}
        value={current(u)[field] ?? null}
        disabled={isMarked || managerRoleIds.has(u.roleId)}
        onChange={(value) => change(u, { [field]: value })}
      />
    ),
  });

  const rows = users.data?.results ?? [];
  return (
    <Stack>
      <MarkableTable
        entities="account users"
        rows={rows}
        total={users.data?.total ?? 0}
        getRowId={(u) => String(u.id)}
        rowLabel={(u) => u.username}
        canMark={(u) => !managerRoleIds.has(u.roleId)}
        marked={marked}
        onMarkedChange={setMarked}
        window={window}
        onWindowChange={setWindow}
        loading={users.isFetching || saving}
        error={users.error ? errorText(users.error) : null}
        emptyText="No users have access to this account"
        columns={[
          { id: 'username', header: 'Username', cell: (u) => u.username },
          { id: 'fullname', header: 'Full name', cell: (u) => u.fullname },
          { id: 'email', header: 'Email', cell: (u) => u.email },
          {
            id: 'role',
            header: 'Role',
            cell: (u, isMarked) =>
              managerRoleIds.has(u.roleId) ? (
                roleName(u.roleId)
              ) : (
                <Select
                  size="xs"
                  aria-label={`Role of ${u.username}`}
                  data={roleOptions}
                  value={String(current(u).roleId)}
                  disabled={isMarked}
                  allowDeselect={false}
                  onChange={(value) => value && change(u, { roleId: Number(value) })}
                />
              ),
          },
          ...(admin
            ? [editorChoiceColumn('version', versions.data), editorChoiceColumn('skin', skins.data)]
            : []),
        ]}
      />
      <SaveChangesButtons dirty={dirty} saving={saving} onSave={save} onDiscard={discard} />
    </Stack>
  );
};
