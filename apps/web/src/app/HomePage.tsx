import { Alert, Anchor, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Me } from '@media/contract';
import { Link } from 'react-router';
import { useAccounts } from '../api/accounts.ts';
import { useMe } from '../api/auth.ts';
import { useOrgList } from '../api/organisation.ts';
import { accountMediaPath, accountSettingsPath } from '../features/accounts/account-paths.ts';

/** How many accounts and sites the start page shows before pointing to the full lists. */
const SHOWN = 12;

const managesSites = (me: Me) =>
  me.rights.admin.length > 0 ||
  me.rights.resellers.length > 0 ||
  me.rights.siteGroups.length > 0 ||
  me.rights.sites.length > 0;

/** The start page: the accounts one works in, and for managers the sites they look after. */
export const HomePage = () => {
  const me = useMe();
  const manager = me.data ? managesSites(me.data) : false;
  return (
    <Stack maw={1100}>
      <Title order={2}>Welcome{me.data?.fullname ? `, ${me.data.fullname}` : ''}</Title>
      <YourAccounts managesSites={manager} />
      {manager && <YourSites />}
    </Stack>
  );
};

const YourAccounts = ({ managesSites }: { managesSites: boolean }) => {
  const accounts = useAccounts(
    { startIndex: 0, pageSize: SHOWN },
    { id: 'name', desc: false },
    { searchText: '' },
  );
  return (
    <Stack gap="xs" component="section" aria-labelledby="home-accounts">
      <Group justify="space-between">
        <Title order={3} id="home-accounts">
          Accounts
        </Title>
        {(accounts.data?.total ?? 0) > SHOWN && (
          <Anchor component={Link} to="/accounts" size="sm">
            All {accounts.data?.total} accounts
          </Anchor>
        )}
      </Group>
      {accounts.isPending ? (
        <Loader size="sm" aria-label="Loading accounts" />
      ) : accounts.isError ? (
        <Alert color="red" role="alert">
          An error occurred while fetching the data: {accounts.error.message}
        </Alert>
      ) : accounts.data.results.length === 0 ? (
        <Text c="dimmed">
          {managesSites
            ? 'No accounts yet: create one on the page of a site.'
            : 'You have no accounts yet: an account manager can invite you to one.'}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {accounts.data.results.map((account) => (
            <Card key={account.id} withBorder padding="sm" data-testid="home-account">
              <Anchor component={Link} to={accountSettingsPath(account.name)} fw={600}>
                {account.name}
              </Anchor>
              <Text size="sm" c="dimmed">
                {account.productionName || 'No production name'} · {account.siteName}
                {account.disabled ? ' · disabled' : ''}
              </Text>
              <Group gap="sm" mt="xs">
                <Anchor component={Link} to={accountMediaPath(account.name)} size="sm">
                  Media
                </Anchor>
                <Anchor component={Link} to={`${accountSettingsPath(account.name)}users`} size="sm">
                  Users
                </Anchor>
                <Anchor component={Link} to={`${accountSettingsPath(account.name)}webupload`} size="sm">
                  Web upload
                </Anchor>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
};

const YourSites = () => {
  const sites = useOrgList('sites', { startIndex: 0, pageSize: SHOWN });
  return (
    <Stack gap="xs" component="section" aria-labelledby="home-sites">
      <Group justify="space-between">
        <Title order={3} id="home-sites">
          Sites
        </Title>
        <Anchor component={Link} to="/admin/organisation" size="sm">
          All sites
        </Anchor>
      </Group>
      {sites.isPending ? (
        <Loader size="sm" aria-label="Loading sites" />
      ) : sites.isError ? (
        <Alert color="red" role="alert">
          An error occurred while fetching the data: {sites.error.message}
        </Alert>
      ) : sites.data.results.length === 0 ? (
        <Text c="dimmed">No sites yet: create one on the Organisation page.</Text>
      ) : (
        <Group gap="sm">
          {sites.data.results.map((site) => (
            <Anchor key={site.id} component={Link} to={`/site/${site.id}/`}>
              {site.name}
            </Anchor>
          ))}
        </Group>
      )}
    </Stack>
  );
};
