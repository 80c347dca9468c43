import { Alert, Anchor, Center, Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { RESET_TYPES, type ResetType } from '@media/contract';
import { Link, useParams, useSearchParams } from 'react-router';
import { useMe } from '../../api/auth.ts';
import { appSettings } from '../../api/settings.ts';
import { HEADER_CLEARANCE } from '../../ui/Section.tsx';
import { ExtraDataSection } from '../account-config/ExtraDataSection.tsx';
import { OwnActivitySection } from '../audit/OwnActivitySection.tsx';
import { EmailNotificationSettings } from '../notifications/EmailNotificationSettings.tsx';
import { ApiTokensSection } from './ApiTokensSection.tsx';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';
import { LINKED_SIGN_IN_ID, LinkedSignInSection } from './LinkedSignInSection.tsx';
import { SecondFactorSection } from './SecondFactorSection.tsx';
import { SessionsSection } from './SessionsSection.tsx';

const RESET_TITLES: Record<ResetType, string> = {
  just_reset: 'Reset Password',
  registration: 'Set Password',
};

/** `/users/user_settings/{userId}/`: own settings, or the reset / registration mode of a mailed link. */
export const UserSettingsPage = () => {
  const { userId } = useParams();
  const [params] = useSearchParams();
  const id = Number(userId);
  const resetToken = params.get('resetToken');
  const resetType = params.get('resetType');

  if (resetToken) {
    if (!RESET_TYPES.includes(resetType as ResetType)) {
      return (
        <Center mih="100vh">
          <Alert color="red">Unknown reset type: {resetType ?? 'none'}</Alert>
        </Center>
      );
    }
    return (
      <Center mih="100vh" p="md">
        <Paper withBorder shadow="sm" p="xl" radius="md" w={460}>
          <Stack>
            <Title order={2}>{RESET_TITLES[resetType as ResetType]}</Title>
            <ChangePasswordForm userId={id} mode={resetType as ResetType} resetToken={resetToken} />
          </Stack>
        </Paper>
      </Center>
    );
  }
  return <OwnSettings userId={id} />;
};

const OwnSettings = ({ userId }: { userId: number }) => {
  const me = useMe();
  const { oidcButtonText } = appSettings();
  // Another user's settings are theirs alone (their current password, their second factor): the page says
  // so, instead of a nameless form the server would refuse.
  if (me.data && me.data.id !== userId)
    return (
      <Stack maw={720} data-testid="not-own-settings">
        <Title order={2}>User settings</Title>
        <Text>
          These settings are another user's: only they can change them. People are managed on the Users page
          of their account.
        </Text>
        <Anchor component={Link} to={`/users/user_settings/${me.data.id}/`}>
          Your own settings
        </Anchor>
      </Stack>
    );
  return (
    <Stack maw={720}>
      <Title order={2}>User settings</Title>
      <Title order={3} id="change-password">
        Change password
      </Title>
      {me.data?.hasPassword === false ? (
        // A user made through the identity provider: there is no current password to give.
        <Text size="sm" data-testid="no-password">
          You have no password here: you sign in through your identity provider.
        </Text>
      ) : (
        <ChangePasswordForm
          userId={userId}
          username={me.data?.id === userId ? me.data.username : undefined}
          mode="currentPassword"
        />
      )}
      {me.data?.id === userId && (
        <>
          <Divider />
          <Title order={3} id="second-factor">
            Second factor
          </Title>
          <SecondFactorSection userId={userId} />
          <Divider />
          {oidcButtonText && (
            <>
              <Title order={3} id={LINKED_SIGN_IN_ID} style={{ scrollMarginTop: HEADER_CLEARANCE }}>
                Linked sign-in
              </Title>
              <LinkedSignInSection buttonText={oidcButtonText} />
              <Divider />
            </>
          )}
          <Title order={3} id="api-tokens">
            API tokens
          </Title>
          <ApiTokensSection />
          <Divider />
          <Title order={3} id="sessions">
            Sessions
          </Title>
          <SessionsSection />
          <Divider />
          <Title order={3} id="activity">
            Activity on your user
          </Title>
          <OwnActivitySection />
          <Divider />
          <Title order={3} id="email-notification-settings">
            Email notification settings
          </Title>
          <EmailNotificationSettings userId={userId} />
          <Divider />
          <Title order={3} id="extra-data">
            Extra data
          </Title>
          <ExtraDataSection scope="users" id={userId} canEdit />
        </>
      )}
    </Stack>
  );
};
