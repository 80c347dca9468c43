import {
  Alert,
  Anchor,
  Button,
  Center,
  Divider,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { isLocalReturnPath } from '@media/contract';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useLogin } from '../../api/auth.ts';
import { oidcErrorText, oidcLoginUrl } from '../../api/oidc.ts';
import { appSettings } from '../../api/settings.ts';
import { ForgotPasswordForm } from './ForgotPasswordForm.tsx';

/** Only paths of this site, so a crafted link cannot send the user elsewhere after sign-in. */
const safeNext = (next: string | null) => (next && isLocalReturnPath(next) ? next : '/');

/** The identity provider's button (OIDC_BUTTON_TEXT): a full-page visit, the provider's pages come next. */
const ProviderButton = ({ text, next }: { text: string; next: string }) => (
  <Button component="a" href={oidcLoginUrl({ returnTo: next })} variant="filled">
    {text}
  </Button>
);

export const SignInPage = () => {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const login = useLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [mfaCode, setMfaCode] = useState('');
  const [mode, setMode] = useState<'password' | 'mfa'>('password');
  const [error, setError] = useState<string>();
  const [forgot, setForgot] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  const { oidcButtonText, passwordSignIn } = appSettings();
  // PASSWORD_SIGN_IN=0: the password form is for administrators, one click away.
  const [passwordFormShown, setPasswordFormShown] = useState(passwordSignIn || !oidcButtonText);
  const providerError = oidcErrorText(params.get('oidcError'));
  const next = safeNext(params.get('next'));

  useEffect(() => {
    if (mode === 'mfa') codeInput.current?.focus();
  }, [mode]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      const result = await login.mutateAsync({
        username,
        password,
        ...(mode === 'mfa' && mfaCode ? { mfaCode } : {}),
      });
      if (result.status === 'valid') {
        await navigate(next, { replace: true });
      } else if (result.status === 'invalidmfa') {
        // Keep the password; ask for the code.
        if (mode === 'mfa') setError(result.error);
        setMode('mfa');
        setMfaCode('');
      } else {
        setMode('password');
        setMfaCode('');
        setError(result.error);
      }
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={380}>
        <Stack gap="md">
          <div>
            <Title order={2}>Media Cloud</Title>
            <Text c="dimmed" size="sm">
              {forgot ? 'Reset your password' : 'Sign in to continue'}
            </Text>
          </div>
          {providerError && (
            <Alert color="red" role="alert" title="Sign-in failed" data-testid="oidc-error">
              {providerError}
            </Alert>
          )}
          {oidcButtonText && !forgot && (
            <>
              <ProviderButton text={oidcButtonText} next={next} />
              {passwordFormShown ? (
                <Divider label="or with your password" labelPosition="center" />
              ) : (
                <Anchor component="button" type="button" size="sm" onClick={() => setPasswordFormShown(true)}>
                  Administrator sign-in with a password
                </Anchor>
              )}
            </>
          )}
          {!passwordFormShown ? null : forgot ? (
            <ForgotPasswordForm initialUsername={username} onBack={() => setForgot(false)} />
          ) : (
            <form onSubmit={submit} noValidate>
              <Stack gap="sm">
                {error && (
                  <Alert color="red" role="alert" title="Sign-in failed">
                    {error}
                  </Alert>
                )}
                <TextInput
                  label="Username"
                  autoComplete="username"
                  required
                  autoFocus
                  value={username}
                  disabled={mode === 'mfa'}
                  onChange={(e) => setUsername(e.currentTarget.value)}
                />
                <PasswordInput
                  label="Password"
                  autoComplete="current-password"
                  required
                  value={password}
                  disabled={mode === 'mfa'}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                />
                {mode === 'mfa' && (
                  <TextInput
                    ref={codeInput}
                    label="Verification Code"
                    description="The code from your authenticator app, or a recovery code"
                    autoComplete="one-time-code"
                    inputMode="numeric"
                    required
                    value={mfaCode}
                    onChange={(e) => setMfaCode(e.currentTarget.value)}
                  />
                )}
                <Button
                  type="submit"
                  loading={login.isPending}
                  disabled={!username || !password || (mode === 'mfa' && !mfaCode)}
                >
                  Sign in
                </Button>
                {mode === 'mfa' ? (
                  <Anchor component="button" type="button" size="sm" onClick={() => setMode('password')}>
                    Use another user
                  </Anchor>
                ) : (
                  <Anchor component="button" type="button" size="sm" onClick={() => setForgot(true)}>
                    Forgot password?
                  </Anchor>
                )}
              </Stack>
            </form>
          )}
        </Stack>
      </Paper>
    </Center>
  );
};
