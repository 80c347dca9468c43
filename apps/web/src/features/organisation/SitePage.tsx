import { Alert, Badge, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { useSite, useSitePermissions } from '../../api/organisation.ts';
import { Section } from '../../ui/Section.tsx';
import { ExtraDataSection } from '../account-config/ExtraDataSection.tsx';
import { MetadataColumnsSection } from '../account-config/MetadataColumnsSection.tsx';
import { AccountsTable } from '../accounts/AccountsTable.tsx';
import { SiteEdgeServers } from '../edge/SiteEdgeServers.tsx';
import { ManagersTable } from '../managers/ManagersTable.tsx';
import { ImportUsersFromCsv } from '../user-import/ImportUsersFromCsv.tsx';

/** `/site/{siteId}/`: the site, its accounts, and for its managers the users CSV import and site managers. */
export const SitePage = () => {
  const { siteId } = useParams();
  const id = Number(siteId);
  const site = useSite(id);
  const permissions = useSitePermissions(id);

  if (site.isPending || permissions.isPending) return <Loader aria-label="Loading" />;
  if (site.isError) {
    const missing = site.error instanceof ApiError && site.error.status === 404;
    return (
      <Alert color="red" role="alert" title={missing ? 'Site not found' : undefined}>
        {missing
          ? 'There is no such site that you can see.'
          : `An error occurred while fetching the data: ${site.error.message}`}
      </Alert>
    );
  }
  // Without the permissions the page still shows the site and its accounts, read-only.
  const may = permissions.data;
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="xs">
            <Title order={2}>{site.data.name}</Title>
            {site.data.disabled && (
              <Badge color="gray" variant="light">
                Disabled
              </Badge>
            )}
          </Group>
          <Text c="dimmed" size="sm" data-testid="site-ancestry">
            Site group {site.data.siteGroupName} · Reseller {site.data.resellerName}
          </Text>
        </div>
        {may?.canManage && (
          <Button component={Link} to={`/site/${id}/publishing`} variant="default">
            Publishing buttons
          </Button>
        )}
      </Group>
      {permissions.isError && (
        <Alert color="yellow">An error occurred while fetching the data: {permissions.error.message}</Alert>
      )}
      <Section title="Accounts" id="site-accounts">
        <AccountsTable siteId={id} canCreate={may?.canCreateAccounts ?? false} />
      </Section>
      {may?.canImportUsers && (
        <Section title="Users" id="site-users">
          <ImportUsersFromCsv siteId={id} />
        </Section>
      )}
      {may?.canManageManagers && (
        <Section title="Metadata columns" id="metadata-columns">
          <MetadataColumnsSection owner={{ scope: 'sites', id }} canEdit />
        </Section>
      )}
      {may?.canManageManagers && (
        <Section title="Extra data" id="extra-data">
          <ExtraDataSection scope="sites" id={id} canEdit />
        </Section>
      )}
      {may?.canManage && (
        <Section title="Edge servers" id="edge-servers">
          <SiteEdgeServers siteId={id} />
        </Section>
      )}
      {may?.canManageManagers && (
        <Section title="Site managers" id="site-managers">
          <ManagersTable type="site" scopeId={id} canadd="True" candelete="True" canremoveself="False" />
        </Section>
      )}
    </Stack>
  );
};
