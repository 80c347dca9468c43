import { Alert, Anchor, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { Account } from '@media/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAccountById } from '../../api/arrivals.ts';
import { ApiError } from '../../api/client.ts';
import { NotForRolePage } from '../../ui/MessagePage.tsx';
import { accountSettingsPath } from '../accounts/account-paths.ts';

/** The account of an `/accounts/{accountId}/…` page, with its loading and error states and a title. */
export const AccountFrame = ({
  accountId,
  title,
  actions,
  managersOnly = false,
  children,
}: {
  accountId: number;
  title: string;
  actions?: ReactNode;
  /** The page is the account managers' (account.manage): others read so instead of a refused fetch. */
  managersOnly?: boolean;
  children: (account: Account) => ReactNode;
}) => {
  const account = useAccountById(accountId);
  if (!Number.isInteger(accountId) || accountId <= 0)
    return (
      <Alert color="red" role="alert" title="Account not found">
        This address names no account.
      </Alert>
    );
  if (account.isPending) return <Loader aria-label="Loading" />;
  if (account.isError) {
    const missing = account.error instanceof ApiError && account.error.status === 404;
    return (
      <Alert color="red" role="alert" title={missing ? 'Account not found' : undefined}>
        {missing
          ? `There is no account ${accountId} that you can see.`
          : `An error occurred while fetching the data: ${account.error.message}`}
      </Alert>
    );
  }
  if (managersOnly && !account.data.access.canManage)
    return <NotForRolePage page={`The ${title.toLowerCase()} page of ${account.data.name}`} />;
  return (
    <Stack maw={1280}>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>{title}</Title>
          <Text c="dimmed" size="sm">
            Account{' '}
            <Anchor component={Link} to={accountSettingsPath(account.data.name)} size="sm">
              {account.data.name}
            </Anchor>
          </Text>
        </div>
        {actions}
      </Group>
      {children(account.data)}
    </Stack>
  );
};
