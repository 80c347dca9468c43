import {
  Alert,
  Anchor,
  Button,
  Center,
  Divider,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { errorText, MSG_FIELD_REQUIRED } from '@media/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { apiFetch } from '../../api/client.ts';
import { oidcLoginUrl } from '../../api/oidc.ts';
import { appSettings } from '../../api/settings.ts';
import { NewPasswordFields, useNewPassword } from '../users/NewPasswordFields.tsx';

type Invitation = { email: string; accountName: string; roleName: string; registered: boolean };
type Registration = { fullname: string; username?: string; newPassword: string };

/**
 * Accepting through the company's identity provider (OIDC_BUTTON_TEXT): the provider's sign-in links that
 * identity to the invited user (made when new), and the browser comes back signed in.
 */
const AcceptWithProvider = ({ token, buttonText }: { token: string; buttonText: string }) => (
  <Button component="a" href={oidcLoginUrl({ invite: token, returnTo: '/' })} w="fit-content">
    Accept with {buttonText}
  </Button>
);

/**
 * The invitation link: someone who already has a user accepts; someone new registers with a full name
 * and a password that meets the rules. Either way the account appears among theirs. With the identity
 * provider set up, either accepts through it too; with PASSWORD_SIGN_IN=0 someone new registers only through
 * it (a password would not sign them in).
 */
export const InvitationPage = () => {
  const { token = '' } = useParams();
  const invitation = useQuery({
    queryKey: ['invitations', token],
    queryFn: () => apiFetch<Invitation>(`/api/invitations/${encodeURIComponent(token)}`, { noRelogin: true }),
    retry: false,
  });
  const accept = useMutation({
    mutationFn: (body: Registration | Record<string, never>) =>
      apiFetch<{ message: string }>(`/api/invitations/${encodeURIComponent(token)}/accept`, {
        method: 'POST',
        body,
        noRelogin: true,
      }),
  });
  const [fullname, setFullname] = useState('');
  const [username, setUsername] = useState('');
  const [touched, setTouched] = useState(false);
  const password = useNewPassword(username || invitation.data?.email.split('@')[0] || '');
  const { oidcButtonText, passwordSignIn } = appSettings();

  const register = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!fullname.trim() || !password.valid) return;
    accept.mutate({
      fullname: fullname.trim(),
      ...(username.trim() ? { username: username.trim() } : {}),
      newPassword: password.newPassword,
    });
  };

  const content = () => {
    if (invitation.isPending) return <Loader aria-label="Loading the invitation" />;
    if (invitation.error)
      return (
        <Alert color="red" role="alert" title="Invitation">
          {errorText(invitation.error)}
        </Alert>
      );
    const { accountName, roleName, email, registered } = invitation.data;
    if (accept.data)
      return (
        <Alert color="teal" role="status">
          {accept.data.message}: {accountName}.{' '}
          <Anchor component={Link} to="/login">
            Go to the sign-in page
          </Anchor>
        </Alert>
      );
    return (
      <Stack>
        <Text>
          You are invited to the <b>{accountName}</b> account as {roleName} ({email}).
        </Text>
        {accept.error && (
          <Alert color="red" role="alert">
            {errorText(accept.error)}
          </Alert>
        )}
        {oidcButtonText && <AcceptWithProvider token={token} buttonText={oidcButtonText} />}
        {registered ? (
          <Button
            onClick={() => accept.mutate({})}
            loading={accept.isPending}
            variant={oidcButtonText ? 'default' : 'filled'}
            w="fit-content"
          >
            Accept invitation
          </Button>
        ) : oidcButtonText && !passwordSignIn ? null : (
          <form onSubmit={register} noValidate>
            <Stack gap="sm">
              {oidcButtonText && <Divider label="or register with a password" labelPosition="center" />}
              <TextInput
                label="Full name"
                required
                value={fullname}
                error={touched && !fullname.trim() ? MSG_FIELD_REQUIRED : undefined}
                onChange={(e) => setFullname(e.currentTarget.value)}
              />
              <TextInput
                label="User name"
                description="Leave empty to use the first part of your email address"
                value={username}
                onChange={(e) => setUsername(e.currentTarget.value)}
              />
              <NewPasswordFields state={password} />
              <Button type="submit" disabled={!password.valid} loading={accept.isPending} w="fit-content">
                Set password and join
              </Button>
            </Stack>
          </form>
        )}
      </Stack>
    );
  };

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" radius="md" w={480}>
        <Stack>
          <Title order={2}>Invitation</Title>
          {content()}
        </Stack>
      </Paper>
    </Center>
  );
};
