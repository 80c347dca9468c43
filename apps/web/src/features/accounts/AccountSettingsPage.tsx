import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { type Account, accountDashboardPath, CHANNELS, EDGE_LINKS, webhooksPageLink } from '@media/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { accountByNameKey, useAccountByName } from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { useLiveChannel } from '../../api/live.ts';
import { Section, SectionLinks } from '../../ui/Section.tsx';
import { ExtraDataSection, INGEST_FORMATS_SECTION_ID } from '../account-config/ExtraDataSection.tsx';
import { IngestFormatsSection } from '../account-config/IngestFormatsSection.tsx';
import { KeyboardExpansionMapsSection } from '../account-config/KeyboardExpansionMapsSection.tsx';
import { KeyShortcutsSection } from '../account-config/KeyShortcutsSection.tsx';
import { MetadataColumnsSection } from '../account-config/MetadataColumnsSection.tsx';
import { MetadataTransferSection } from '../account-config/MetadataTransferSection.tsx';
import { AccountContactForm } from './AccountContactForm.tsx';
import { AccountDataForm } from './AccountDataForm.tsx';
import { accountMediaPath, accountSettingsPath } from './account-paths.ts';
import { EditAsRoleMenu } from './EditAsRoleMenu.tsx';

/** `/accounts/{accountName}/`: the account's settings, the way into its users and managers, Edit as role. */
export const AccountSettingsPage = () => {
  const { accountName = '' } = useParams();
  const account = useAccountByName(accountName);
  const queryClient = useQueryClient();
  useLiveChannel(
    account.data ? CHANNELS.account(account.data.id) : undefined,
    () => void queryClient.invalidateQueries({ queryKey: accountByNameKey(accountName) }),
  );

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
  return <AccountSettings key={account.data.id} account={account.data} />;
};

const AccountSettings = ({ account }: { account: Account }) => {
  const { access } = account;
  return (
    <Stack maw={960}>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="xs">
            <Title order={2}>{account.name}</Title>
            {account.disabled && (
              <Badge color="gray" variant="light">
                Disabled
              </Badge>
            )}
          </Group>
          <Text c="dimmed" size="sm">
            {account.productionName || 'No production name'} · site{' '}
            <Anchor component={Link} to={`/site/${account.siteId}/`} size="sm">
              {account.siteName}
            </Anchor>
          </Text>
        </div>
        <Group gap="sm">
          <Button component={Link} to={`${accountSettingsPath(account.name)}users`} variant="default">
            Users
          </Button>
          <Button component={Link} to={accountMediaPath(account.name)} variant="default">
            Media
          </Button>
          <Button component={Link} to={accountDashboardPath(account.name)} variant="default">
            Dashboard
          </Button>
          <Button component={Link} to={`${accountSettingsPath(account.name)}webupload`} variant="default">
            Web upload
          </Button>
          {access.canManage && (
            <Button component={Link} to={`${accountSettingsPath(account.name)}metaupload`} variant="default">
              Metadata upload
            </Button>
          )}
          {access.canManage && (
            <Button component={Link} to={EDGE_LINKS.arrivals(account.id)} variant="default">
              Arrivals folders
            </Button>
          )}
          {access.canManage && (
            <Button component={Link} to={`${accountSettingsPath(account.name)}publishing`} variant="default">
              Publishing buttons
            </Button>
          )}
          {access.canManage && (
            <Button component={Link} to={EDGE_LINKS.accountIngestQueue(account.id)} variant="default">
              Ingest queue
            </Button>
          )}
          {access.canManage && (
            <Button component={Link} to={webhooksPageLink(account.name)} variant="default">
              Integrations
            </Button>
          )}
          {access.canManage && (
            <Button
              component={Link}
              to={`${accountSettingsPath(account.name)}users?element_id_to_jump_to=account-managers`}
              variant="default"
            >
              Managers
            </Button>
          )}
          {access.canManage && <EditAsRoleMenu account={account} />}
        </Group>
      </Group>
      {!access.canManage && (
        <Alert color="blue">You can see this account's settings; only its managers can change them.</Alert>
      )}
      <SectionLinks
        sections={[
          { id: 'account-data', title: 'Account data' },
          { id: 'account-contact', title: 'Account contact' },
          { id: 'metadata-columns', title: 'Metadata columns' },
          ...(access.canManage ? [{ id: 'metadata-import-export', title: 'Metadata import/export' }] : []),
          { id: INGEST_FORMATS_SECTION_ID, title: 'Ingest formats' },
          ...(access.canManage ? [{ id: 'extra-data', title: 'Extra data' }] : []),
          { id: 'keyboard-expansion-maps', title: 'Keyboard expansion maps' },
          { id: 'key-shortcuts', title: 'Key shortcuts' },
        ]}
      />
      <Section title="Account data" id="account-data">
        <AccountDataForm account={account} />
      </Section>
      <Section title="Account contact" id="account-contact">
        <AccountContactForm account={account} />
      </Section>
      <Section title="Metadata columns" id="metadata-columns">
        <MetadataColumnsSection owner={{ scope: 'accounts', id: account.id }} canEdit={access.canManage} />
      </Section>
      {access.canManage && (
        <Section title="Metadata import/export" id="metadata-import-export">
          <MetadataTransferSection accountId={account.id} />
        </Section>
      )}
      <Section title="Ingest formats" id={INGEST_FORMATS_SECTION_ID}>
        <IngestFormatsSection accountId={account.id} canManage={access.canManage} />
      </Section>
      {access.canManage && (
        <Section title="Extra data" id="extra-data">
          <ExtraDataSection scope="accounts" id={account.id} canEdit />
        </Section>
      )}
      <Section title="Keyboard expansion maps" id="keyboard-expansion-maps">
        <KeyboardExpansionMapsSection account={account} canManage={access.canManage} />
      </Section>
      <Section title="Key shortcuts" id="key-shortcuts">
        <KeyShortcutsSection context={{ accountId: account.id, siteId: account.siteId }} />
      </Section>
    </Stack>
  );
};
