import { Alert, Button, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useInterval } from '@mantine/hooks';
import { type LoginResult, type Me, MSG_FIELD_REQUIRED } from '@media/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState, useSyncExternalStore } from 'react';
import { ME_QUERY_KEY } from '../api/auth.ts';
import { apiFetch, relogin } from '../api/client.ts';

export const MSG_SESSION_TIMED_OUT = 'Your session has timed out. Please enter the password again.';
/** spec1 §9: while the dialog is open, the current user is polled every 30 s. */
const SESSION_POLL_MS = 30_000;

/**
 * The re-login dialog of spec1 §4 and spec2 §2: opened by any 401 outside sign-in, not dismissable,
 * closed by a successful sign-in or by the current-user call succeeding again.
 */
export const ReloginDialog = () => {
  const state = useSyncExternalStore(relogin.subscribe, relogin.getState);
  const queryClient = useQueryClient();
  const me = queryClient.getQueryData<Me | null>(ME_QUERY_KEY);
  const [password, setPassword] = useState('');
  const [mfaCode, setMfaCode] = useState('');
  const [mode, setMode] = useState<'password' | 'mfa'>('password');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // spec2 §5: each field says 'This field is required' once touched or submitted empty.
  const [touched, setTouched] = useState({ password: false, mfaCode: false });

  const close = () => {
    setPassword('');
    setMfaCode('');
    setMode('password');
    setError(undefined);
    setTouched({ password: false, mfaCode: false });
    relogin.succeeded();
  };

  const poll = useInterval(() => {
    apiFetch<Me>('/api/me', { noRelogin: true }).then(close, () => {});
  }, SESSION_POLL_MS);
  useEffect(() => {
    if (state.open) poll.start();
    else poll.stop();
    return poll.stop;
  }, [state.open, poll.start, poll.stop]);

  useEffect(() => {
    // Without a known user there is nobody to re-authenticate: go to the sign-in page instead.
    if (state.open && !me)
      window.location.assign(
        `/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`,
      );
  }, [state.open, me]);

  if (!me) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ password: true, mfaCode: mode === 'mfa' });
    if (!password || (mode === 'mfa' && !mfaCode)) return;
    setBusy(true);
    setError(undefined);
    try {
      const result = await apiFetch<LoginResult>('/api/login', {
        method: 'POST',
        body: { username: me.username, password, ...(mode === 'mfa' ? { mfaCode } : {}) },
        noRelogin: true,
      });
      if (result.status === 'valid') close();
      else if (result.status === 'invalidmfa') {
        if (mode === 'mfa') setError(result.error);
        setMode('mfa');
        setMfaCode('');
      } else {
        setMode('password');
        setError(result.error);
      }
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  const reason = state.message;

  return (
    <Modal
      opened={state.open}
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      title={`Password required for ${me.fullname || me.username} (${me.username})`}
    >
      <form noValidate onSubmit={submit}>
        <Stack gap="sm">
          <Text size="sm">{MSG_SESSION_TIMED_OUT}</Text>
          {reason && (
            <Alert color="yellow" data-testid="relogin-reason">
              {reason}
            </Alert>
          )}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            data-autofocus
            value={password}
            disabled={mode === 'mfa'}
            required
            error={touched.password && !password ? MSG_FIELD_REQUIRED : undefined}
            onBlur={() => setTouched((was) => ({ ...was, password: true }))}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          {mode === 'mfa' && (
            <TextInput
              label="Verification Code"
              autoComplete="one-time-code"
              inputMode="numeric"
              value={mfaCode}
              required
              error={touched.mfaCode && !mfaCode ? MSG_FIELD_REQUIRED : undefined}
              onBlur={() => setTouched((was) => ({ ...was, mfaCode: true }))}
              onChange={(e) => setMfaCode(e.currentTarget.value)}
            />
          )}
          <Button type="submit" loading={busy}>
            {mode === 'mfa' ? 'Verify' : 'Login'}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
};
