import { Stack, Text, Title } from '@mantine/core';
import { useMe } from '../../api/auth.ts';
import { AccountsTable } from './AccountsTable.tsx';

/** Every account the user can see; site managers and above also create and clone accounts here. */
export const AccountsPage = () => {
  const me = useMe();
  const rights = me.data?.rights;
  // Creating and cloning need a site to manage (spec1 §6); the server checks the site itself.
  const canCreate =
    !!rights &&
    (rights.admin.length > 0 ||
      rights.resellers.length > 0 ||
      rights.siteGroups.length > 0 ||
      rights.sites.length > 0);
  return (
    <Stack>
      <div>
        <Title order={2}>Accounts</Title>
        <Text c="dimmed" size="sm">
          Productions you can open or manage. Choose an account to see and change its settings.
        </Text>
      </div>
      <AccountsTable canCreate={canCreate} />
    </Stack>
  );
};
