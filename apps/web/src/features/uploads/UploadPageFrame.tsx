import { Alert, Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import type { Account, UploadKind } from '@media/contract';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useAccountByName } from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { useUploads } from '../../api/uploads.ts';
import { accountSettingsPath } from '../accounts/account-paths.ts';

/** The account of an `/accounts/{accountName}/…` upload page, with its loading and error states. */
export const UploadPageFrame = ({
  title,
  children,
}: {
  title: string;
  children: (account: Account) => ReactNode;
}) => {
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
  return (
    <Stack maw={1100}>
      <div>
        <Title order={2}>{title}</Title>
        <Text c="dimmed" size="sm">
          Account{' '}
          <Anchor component={Link} to={accountSettingsPath(account.data.name)} size="sm">
            {account.data.name}
          </Anchor>
        </Text>
      </div>
      {children(account.data)}
    </Stack>
  );
};

/** spec1 §5: several files at once only where the browser can (not on iOS, nor without file APIs). */
export const canChooseSeveralFiles = () =>
  typeof window !== 'undefined' && 'FileReader' in window && !/iPad|iPhone|iPod/.test(navigator.userAgent);

/**
 * The upload controls of an account, only for those the server lets upload there (asked before a byte is
 * sent); others read why.
 */
export const UploadAllowed = ({
  account,
  kind,
  children,
}: {
  account: Account;
  kind?: UploadKind;
  children: ReactNode;
}) => {
  // Metadata mappings are the managers' (account.manage, as the server decides): others need not ask.
  const mayAsk = kind !== 'metadataMapping' || account.access.canManage;
  const access = useUploads(account.id, kind, { offset: 0, limit: 1 }, { enabled: mayAsk });
  const refused = !mayAsk || (access.error instanceof ApiError && access.error.status === 403);
  if (mayAsk && access.isPending) return <Loader aria-label="Loading" />;
  if (refused || access.data?.mayUpload === false)
    return (
      <Alert color="gray" data-testid="upload-not-for-role">
        Uploading {kind === 'metadataMapping' ? 'metadata mappings' : 'files'} to {account.name} is not
        available to your role.
      </Alert>
    );
  if (access.isError)
    return (
      <Alert color="red" role="alert">
        An error occurred while fetching the data: {access.error.message}
      </Alert>
    );
  return children;
};
