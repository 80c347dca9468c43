import { Alert, Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useAccountByName } from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { NotForRolePage } from '../../ui/MessagePage.tsx';
import { Section } from '../../ui/Section.tsx';
import { accountSettingsPath } from '../accounts/account-paths.ts';
import { WebhooksPanel } from './WebhooksPanel.tsx';

/** `/admin/webhooks`: the cloud's webhooks, told of every account's events (administrators). */
export const CloudWebhooksPage = () => (
  <Stack maw={1280}>
    <div>
      <Title order={2}>Webhooks</Title>
      <Text c="dimmed" size="sm">
        The cloud's webhooks: each hears the events of every account.
      </Text>
    </div>
    <WebhooksPanel accountId={null} />
  </Stack>
);

/** `/accounts/{accountName}/integrations`: the account's webhooks (its managers and above). */
export const AccountIntegrationsPage = () => {
  const { accountName = '' } = useParams();
  const account = useAccountByName(accountName);
  if (account.isPending) return <Loader aria-label="Loading" />;
  if (account.isError) {
    const missing = account.error instanceof ApiError && account.error.status === 404;
    return (
      <Alert color="red" role="alert" title={missing ? 'Account not found' : undefined}>
        {missing
          ? `There is no account named "${accountName}" that you can see.`
          : `An error occurred while fetching the data: ${account.error.message}`}
      </Alert>
    );
  }
  // Only the account's managers reach its webhooks: others read so rather than meet a refused fetch.
  if (!account.data.access.canManage)
    return <NotForRolePage page={`The integrations of ${account.data.name}`} />;
  return (
    <Stack maw={1280}>
      <div>
        <Title order={2}>Integrations</Title>
        <Text c="dimmed" size="sm">
          Account{' '}
          <Anchor component={Link} to={accountSettingsPath(account.data.name)} size="sm">
            {account.data.name}
          </Anchor>
        </Text>
      </div>
      <Section title="Webhooks" id="webhooks">
        <WebhooksPanel key={account.data.id} accountId={account.data.id} />
      </Section>
    </Stack>
  );
};
