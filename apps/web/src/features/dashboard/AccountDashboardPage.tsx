import { Alert, Anchor, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import {
  CHANNELS,
  DASHBOARD_MESSAGES,
  EDGE_LINKS,
  errorWhile,
  formatDateTime,
  mediaManagerLink,
} from '@media/contract';
import { Link, useParams } from 'react-router';
import { useAccountByName } from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { accountDashboardKey, useAccountDashboard } from '../../api/diagnostics.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { Section } from '../../ui/Section.tsx';
import { accountSettingsPath } from '../accounts/account-paths.ts';
import { MediaByType, QueueByStatus, RecentActivity, StorageUse, Totals } from './DashboardSections.tsx';

/**
 * `/accounts/{accountName}/dashboard` (spec2 §1, spec3 §2 account dashboard): the account's media by type,
 * its storage use, its ingest queue by status (managers) and what happened last, kept live by the media
 * tree's and the queue's channels.
 */
export const AccountDashboardPage = () => {
  const { accountName = '' } = useParams();
  const account = useAccountByName(accountName);
  const accountId = account.data?.id;
  const dashboard = useAccountDashboard(accountId);
  const key = accountDashboardKey(accountId);
  useLiveRefresh(accountId !== undefined ? CHANNELS.nodes(accountId) : undefined, key);
  // The queue's channel is its managers': only they get the queue part, and only they listen to it.
  useLiveRefresh(
    accountId !== undefined && dashboard.data?.queue ? CHANNELS.accountIngestQueue(accountId) : undefined,
    key,
  );

  if (account.isPending || (accountId !== undefined && dashboard.isPending))
    return <Loader aria-label="Loading" />;
  if (account.isError) {
    const missing = account.error instanceof ApiError && account.error.status === 404;
    return (
      <Alert color="red" role="alert" title={missing ? 'Account not found' : undefined}>
        {missing ? `There is no account named "${accountName}" that you can see.` : errorWhile(account.error)}
      </Alert>
    );
  }
  if (dashboard.isError && !dashboard.data)
    return (
      <Alert color="red" role="alert">
        {errorWhile(dashboard.error)}
      </Alert>
    );
  const data = dashboard.data;
  if (!data) return <Loader aria-label="Loading" />;
  const settings = accountSettingsPath(data.account.name);

  return (
    <Stack maw={1100}>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2}>
            {data.account.name} · {DASHBOARD_MESSAGES.title}
          </Title>
          <Text size="sm" c="dimmed">
            <Anchor component={Link} to={settings} size="sm">
              Account settings
            </Anchor>{' '}
            · as of {formatDateTime(new Date(data.generatedAt))}
          </Text>
        </div>
        <Group gap="sm">
          <Button component={Link} to={mediaManagerLink(data.account.name)} variant="default">
            Media
          </Button>
          {data.queue && (
            <Button component={Link} to={EDGE_LINKS.accountIngestQueue(data.account.id)} variant="default">
              Ingest queue
            </Button>
          )}
          <Button variant="default" onClick={() => void dashboard.refetch()} loading={dashboard.isFetching}>
            Refresh
          </Button>
        </Group>
      </Group>
      {dashboard.isError && (
        <Alert color="red" role="alert">
          {errorWhile(dashboard.error)}
        </Alert>
      )}
      <Totals dashboard={data} />
      <Group align="stretch" grow wrap="wrap">
        <Section title="Media by type" id="media-by-type">
          {data.media ? (
            <MediaByType media={data.media} />
          ) : (
            <Text c="dimmed">{DASHBOARD_MESSAGES.noMediaView}</Text>
          )}
        </Section>
        {data.queue && (
          <Section title="Ingest queue" id="ingest-queue">
            <QueueByStatus queue={data.queue} />
          </Section>
        )}
      </Group>
      <Section title="Storage use" id="storage-use">
        <StorageUse storage={data.storage} />
      </Section>
      <Section title="Recent activity" id="recent-activity">
        <RecentActivity dashboard={data} />
      </Section>
    </Stack>
  );
};
