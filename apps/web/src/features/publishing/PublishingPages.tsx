import { Alert, Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useAccountByName } from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { useSite, useSitePermissions } from '../../api/organisation.ts';
import { NotForRolePage } from '../../ui/MessagePage.tsx';
import { accountSettingsPath } from '../accounts/account-paths.ts';
import { PublishingButtonsManager } from './PublishingButtonsManager.tsx';

const loadFailure = (error: Error, what: string, missingText: string) => {
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <Alert color="red" role="alert" title={missing ? `${what} not found` : undefined}>
      {missing ? missingText : `An error occurred while fetching the data: ${error.message}`}
    </Alert>
  );
};

const Frame = ({ owner, children }: { owner: ReactNode; children: ReactNode }) => (
  <Stack maw={1400}>
    <div>
      <Title order={2}>Publishing buttons</Title>
      <Text c="dimmed" size="sm">
        {owner}
      </Text>
    </div>
    {children}
  </Stack>
);

/** `/accounts/{accountName}/publishing`: the account's publishing buttons (the account found by its name). */
export const AccountPublishingPage = () => {
  const { accountName = '' } = useParams();
  const account = useAccountByName(accountName);
  if (account.isPending) return <Loader aria-label="Loading" />;
  if (account.isError)
    return loadFailure(
      account.error,
      'Account',
      `There is no account named "${accountName}" that you can see.`,
    );
  return (
    <Frame
      owner={
        <>
          Account{' '}
          <Anchor component={Link} to={accountSettingsPath(account.data.name)} size="sm">
            {account.data.name}
          </Anchor>
        </>
      }
    >
      <PublishingButtonsManager
        key={account.data.id}
        ctx={{ scope: 'accounts', scopeId: account.data.id }}
        siteId={account.data.siteId}
        canManage={account.data.access.canManage}
      />
    </Frame>
  );
};

/** `/site/{siteId}/publishing`: the site's publishing buttons. */
export const SitePublishingPage = () => {
  const siteId = Number(useParams().siteId);
  const site = useSite(siteId);
  const permissions = useSitePermissions(siteId);
  if (site.isPending || permissions.isPending) return <Loader aria-label="Loading" />;
  if (site.isError) return loadFailure(site.error, 'Site', 'There is no such site that you can see.');
  // Only the site's managers reach its buttons at all: others read so rather than meet a refused fetch.
  if (!permissions.data?.canManage)
    return <NotForRolePage page={`The publishing buttons page of ${site.data.name}`} />;
  return (
    <Frame
      owner={
        <>
          Site{' '}
          <Anchor component={Link} to={`/site/${siteId}/`} size="sm">
            {site.data.name}
          </Anchor>
        </>
      }
    >
      <PublishingButtonsManager
        key={siteId}
        ctx={{ scope: 'sites', scopeId: siteId }}
        siteId={siteId}
        canManage
      />
    </Frame>
  );
};
