import { Select, Stack } from '@mantine/core';
import {
  type Account,
  type AccountRole,
  errorText,
  errorWhile,
  type Invite,
  MSG_USER_UPDATES_COMPLETED,
  type PageWindow,
} from '@media/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { invitesKey, trashInvite, updateInvite, useInvites } from '../../api/account-access.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { MarkableTable } from '../../ui/MarkableTable.tsx';
import { notify } from '../../ui/notify.tsx';
import { SaveChangesButtons } from '../../ui/SaveChangesButtons.tsx';
import { useDirtyMark } from './useDirtyMark.ts';

/** spec1 §2 Invites: open invitations with their role; role changes and withdrawals saved together. */
export const InvitesTab = (props: { account: Account; roles: AccountRole[] }) => {
  const { account, roles } = props;
  const [window, setWindow] = useState<PageWindow>({ startIndex: 0, pageSize: 100 });
  const invites = useInvites(account.id, { offset: window.startIndex, limit: window.pageSize || 10_000 });
  useLiveRefresh(invites.data?.channel, invitesKey(account.id));
  const [roleEdits, setRoleEdits] = useState<Map<number, number>>(new Map());
  const [marked, setMarked] = useState<Set<string>>(new Set());
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const dirty = roleEdits.size > 0 || marked.size > 0;
  useDirtyMark(`account-invites-${account.id}`, dirty);
  const roleOptions = roles.filter((r) => !r.isManager).map((r) => ({ value: String(r.id), label: r.name }));

  const discard = () => {
    setRoleEdits(new Map());
    setMarked(new Set());
  };
  const save = async () => {
    setSaving(true);
    try {
      for (const [inviteId, roleId] of roleEdits)
        if (!marked.has(String(inviteId))) await updateInvite(account.id, inviteId, roleId);
      for (const id of marked) await trashInvite(account.id, Number(id));
      notify({ type: 'success', text: MSG_USER_UPDATES_COMPLETED });
      discard();
    } catch (error) {
      showAlert({
        type: 'danger',
        text: errorWhile(error, 'updating invites'),
        source: 'invites',
      });
    } finally {
      setSaving(false);
      await queryClient.invalidateQueries({ queryKey: invitesKey(account.id) });
    }
  };

  return (
    <Stack>
      <MarkableTable<Invite>
        entities="invites"
        rows={invites.data?.results ?? []}
        total={invites.data?.total ?? 0}
        getRowId={(i) => String(i.id)}
        rowLabel={(i) => i.email}
        marked={marked}
        onMarkedChange={setMarked}
        window={window}
        onWindowChange={setWindow}
        loading={invites.isFetching || saving}
        error={invites.error ? errorText(invites.error) : null}
        emptyText="No open invitations"
        columns={[
          { id: 'email', header: 'Email', cell: (i) => i.email },
          {
            id: 'role',
            header: 'Role',
            cell: (i, isMarked) => (
              <Select
                size="xs"
                aria-label={`Role of ${i.email}`}
                data={roleOptions}
                value={String(roleEdits.get(i.id) ?? i.roleId)}
                allowDeselect={false}
                disabled={isMarked}
                onChange={(value) => value && setRoleEdits(new Map(roleEdits).set(i.id, Number(value)))}
              />
            ),
          },
        ]}
      />
      <SaveChangesButtons dirty={dirty} saving={saving} onSave={save} onDiscard={discard} />
    </Stack>
  );
};
