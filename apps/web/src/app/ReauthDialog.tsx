import { Alert, Button, Divider, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import {
  MSG_FIELD_REQUIRED,
  MSG_LOGIN_LOCKED,
  MSG_LOGIN_MFA_REQUIRED,
  MSG_REAUTH_REQUIRED,
  REAUTH_WINDOW_MINUTES,
} from '@media/contract';
import { type FormEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useMe } from '../api/auth.ts';
import { ApiError, reauth } from '../api/client.ts';
import { oidcLoginUrl, REAUTH_DONE_CHANNEL, REAUTH_DONE_PATH, returnPathOf } from '../api/oidc.ts';
import { useReauthenticate } from '../api/sessions.ts';
import { appSettings } from '../api/settings.ts';
import { reauthWays } from './reauth-ways.ts';

/** The code of POST /api/me/reauth's refusal while the user name or address is locked out. */
const LOCKED_CODE = 'locked';

/**
 * The identity provider's way: a window of the provider opens (prompt=login: it asks for the password again)
 * and comes back to REAUTH_DONE_PATH, which says so on REAUTH_DONE_CHANNEL; the change then goes again, as
 * after the password. A browser that blocks the window goes there in this page instead and comes back to
 * it: the change is then made again by the person.
 */
const ProviderConfirm = ({
  buttonText,
  primary,
  onConfirmed,
}: {
  buttonText: string;
  primary: boolean;
  onConfirmed: () => void;
}) => {
  const confirmed = useRef(onConfirmed);
  confirmed.current = onConfirmed;
  // Heard while the prompt is open, whichever window or tab the provider came back to.
  useEffect(() => {
    const channel = new BroadcastChannel(REAUTH_DONE_CHANNEL);
    channel.onmessage = () => confirmed.current();
    return () => channel.close();
  }, []);
  const open = () => {
    const popup = window.open(
      oidcLoginUrl({ prompt: 'login', returnTo: REAUTH_DONE_PATH }),
      'reauth-provider',
      'popup,width=520,height=700',
    );
    if (!popup)
      window.location.assign(oidcLoginUrl({ prompt: 'login', returnTo: returnPathOf(window.location) }));
  };
  return (
    <Stack gap="xs">
      <Text size="sm" data-testid="reauth-provider-note">
        A window of your identity provider opens: sign in there, and your change goes on here.
      </Text>
      <Button variant={primary ? 'filled' : 'default'} onClick={open} data-autofocus={primary || undefined}>
        Confirm with {buttonText}
      </Button>
    </Stack>
  );
};

/**
 * "Confirm it's you" (DESIGN.md, sessions): a sensitive change (e-mail, second factor, API tokens, sessions,
 * linked sign-ins) refused for want of a recent sign-in asks for the password, and the verification code when
 * the user has a second factor or the server asks for one; the change goes again once it is accepted. Cancel
 * fails it. A user without a password, or signed in through the identity provider, confirms there instead (or
 * besides, when they have a password).
 */
export const ReauthDialog = () => {
  const state = useSyncExternalStore(reauth.subscribe, reauth.getState);
  const me = useMe();
  const confirm = useReauthenticate();
  const [password, setPassword] = useState('');
  const [mfaCode, setMfaCode] = useState('');
  const [codeAsked, setCodeAsked] = useState(false);
  // spec2 §5: each field says 'This field is required' once touched or submitted empty.
  const [touched, setTouched] = useState({ password: false, mfaCode: false });
  const withCode = codeAsked || me.data?.mfaEnabled === true;
  const { oidcButtonText } = appSettings();
  const ways = reauthWays(me.data, oidcButtonText);

  const failure = confirm.error instanceof ApiError ? confirm.error : undefined;
  const fieldErrors = failure?.fields ?? {};
  // A lock-out reads as on the sign-in page, without its code.
  const otherError =
    failure?.code === LOCKED_CODE
      ? MSG_LOGIN_LOCKED
      : confirm.error && !fieldErrors.password && !fieldErrors.mfaCode
        ? confirm.error.message
        : undefined;

  const finish = (confirmed: boolean) => {
    setPassword('');
    setMfaCode('');
    setCodeAsked(false);
    setTouched({ password: false, mfaCode: false });
    confirm.reset();
    if (confirmed) reauth.confirmed();
    else reauth.cancelled();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ password: true, mfaCode: withCode });
    if (!password || (withCode && !mfaCode.trim())) return;
    confirm.mutate(
      { password, ...(withCode ? { mfaCode: mfaCode.trim() } : {}) },
      {
        onSuccess: () => finish(true),
        onError: (error) => {
          if (error instanceof ApiError && error.fields?.mfaCode) {
            setCodeAsked(true);
            setMfaCode('');
            setTouched((was) => ({ ...was, mfaCode: false }));
          }
        },
      },
    );
  };

  const passwordError =
    (touched.password && !password ? MSG_FIELD_REQUIRED : undefined) ?? fieldErrors.password;
  // The server's "enter the code" is what the field is for: said as its description, not as a fault.
  const codeRequested = fieldErrors.mfaCode === MSG_LOGIN_MFA_REQUIRED;
  const codeError =
    (touched.mfaCode && !mfaCode.trim() ? MSG_FIELD_REQUIRED : undefined) ??
    (codeRequested ? undefined : fieldErrors.mfaCode);

  return (
    <Modal
      opened={state.open}
      onClose={() => finish(false)}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
      title="Confirm it's you"
    >
      {ways.password ? (
        <form noValidate onSubmit={submit}>
          <Stack gap="sm">
            <Text size="sm">{MSG_REAUTH_REQUIRED}</Text>
            {otherError && (
              <Alert color="red" role="alert">
                {otherError}
              </Alert>
            )}
            {me.data && (
              // For the browser's password manager: whose password this is.
              <input type="hidden" autoComplete="username" value={me.data.username} readOnly />
            )}
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              data-autofocus
              value={password}
              required
              error={passwordError}
              onBlur={() => setTouched((was) => ({ ...was, password: true }))}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            {withCode && (
              <TextInput
                label="Verification Code"
                description={codeRequested ? MSG_LOGIN_MFA_REQUIRED : undefined}
                autoComplete="one-time-code"
                inputMode="numeric"
                value={mfaCode}
                required
                error={codeError}
                onBlur={() => setTouched((was) => ({ ...was, mfaCode: true }))}
                onChange={(e) => setMfaCode(e.currentTarget.value)}
              />
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => finish(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={confirm.isPending}>
                Confirm
              </Button>
            </Group>
            {ways.provider && oidcButtonText && (
              <>
                <Divider label="or" labelPosition="center" />
                <ProviderConfirm
                  buttonText={oidcButtonText}
                  primary={false}
                  onConfirmed={() => finish(true)}
                />
              </>
            )}
          </Stack>
        </form>
      ) : (
        <Stack gap="sm">
          <Text size="sm">This change needs a sign-in from the last {REAUTH_WINDOW_MINUTES} minutes.</Text>
          {oidcButtonText && (
            <ProviderConfirm buttonText={oidcButtonText} primary onConfirmed={() => finish(true)} />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => finish(false)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
};
