import { Alert, Anchor, Button, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { errorText, errorWhile, ROLE_ACCOUNT_MANAGER } from '@media/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAccountRoles } from '../../api/account-access.ts';
import { useAccountByName } from '../../api/accounts.ts';
import { useMe } from '../../api/auth.ts';
import { ManagersTable } from '../managers/ManagersTable.tsx';
import { AccessTab } from './AccessTab.tsx';
import { AddUsersDialog } from './AddUsersDialog.tsx';
import { InvitesTab } from './InvitesTab.tsx';
import { SessionsTab } from './SessionsTab.tsx';

/** spec1 §2 Edit account users in its three contexts: Access, Invites and Sessions. */
export const AccountUsersPage = () => {
  const { accountName = '' } = useParams();
  const account = useAccountByName(accountName);
  const me = useMe();
  const roles = useAccountRoles(account.data?.siteId);
  const [adding, setAdding] = useState(false);
  const admin = (me.data?.rights.admin.length ?? 0) > 0;

  if (account.isPending || (roles.isPending && account.data))
    return (
      <Group>
        <Loader size="sm" /> <Text>Loading the account…</Text>
      </Group>
    );
  if (account.error || !account.data)
    return (
      <Alert color="red" role="alert" title="The account could not be loaded">
        {errorText(account.error)}
      </Alert>
    );
  if (!account.data.access.canManage)
    return (
      <Alert color="yellow" role="alert">
        Only the account's managers can edit its users.
      </Alert>
    );
  const roleList = roles.data ?? [];
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>Users of {account.data.name}</Title>
          <Text size="sm" c="dimmed">
            <Anchor component={Link} to={`/accounts/${encodeURIComponent(account.data.name)}/`}>
              Account settings
            </Anchor>
          </Text>
        </div>
        <Button onClick={() => setAdding(true)}>Add users</Button>
      </Group>
      {roles.error && (
        <Alert color="red" role="alert">
          {errorWhile(roles.error, 'loading the roles')}
        </Alert>
      )}
      <Tabs defaultValue="access" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="access">Access</Tabs.Tab>
          <Tabs.Tab value="invites">Invites</Tabs.Tab>
          <Tabs.Tab value="sessions">Sessions</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="access" pt="md">
          <AccessTab account={account.data} roles={roleList} admin={admin} />
        </Tabs.Panel>
        <Tabs.Panel value="invites" pt="md">
          <InvitesTab account={account.data} roles={roleList} />
        </Tabs.Panel>
        <Tabs.Panel value="sessions" pt="md">
          <SessionsTab account={account.data} />
        </Tabs.Panel>
      </Tabs>
      <Stack gap="xs" id="account-managers">
        <Title order={3}>Managers</Title>
        <ManagersTable
          type="account"
          scopeId={account.data.id}
          roleName={ROLE_ACCOUNT_MANAGER}
          siteId={account.data.siteId}
          // Manager roles are given by site managers and above (spec1 §6).
          canadd={account.data.access.canChangeBilling ? 'True' : 'False'}
          candelete={account.data.access.canChangeBilling ? 'True' : 'False'}
          canremoveself="False"
        />
      </Stack>
      <AddUsersDialog
        account={account.data}
        roles={roleList}
        admin={admin}
        opened={adding}
        onClose={() => setAdding(false)}
      />
    </Stack>
  );
};
