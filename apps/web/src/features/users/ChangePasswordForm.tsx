import { Alert, Anchor, Button, List, PasswordInput, Progress, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  checkPassword,
  MSG_FIELD_REQUIRED_EMPTY,
  MSG_PASSWORD_MISMATCH,
  passwordStrength,
  type ResetType,
} from '@media/contract';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { usePasswordRules, useSetPassword } from '../../api/users.ts';

export type ChangePasswordMode = 'currentPassword' | ResetType;

const STRENGTH_COLOR = { unsafe: 'red', moderate: 'yellow', safe: 'teal' } as const;
/** spec1 §5: the confirmation is checked a second after typing stops. */
const CONFIRM_CHECK_DELAY_MS = 1000;

export const ChangePasswordForm = (props: {
  userId: number;
  username?: string;
  mode: ChangePasswordMode;
  resetToken?: string;
}) => {
  const rules = usePasswordRules();
  const setPassword = useSetPassword(props.userId);
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [debouncedConfirm] = useDebouncedValue(confirm, CONFIRM_CHECK_DELAY_MS);
  const [done, setDone] = useState<string>();

  const outcomes = rules.data ? checkPassword(newPassword, props.username ?? '', rules.data) : [];
  const strength = rules.data ? passwordStrength(newPassword, props.username ?? '', rules.data) : undefined;
  // Shown a second after typing stops, hidden at once when the text changes.
  const mismatch = debouncedConfirm === confirm && confirm !== '' && confirm !== newPassword;
  const valid =
    newPassword !== '' &&
    confirm === newPassword &&
    outcomes.every((o) => o.passed) &&
    (props.mode !== 'currentPassword' || currentPassword !== '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    const result = await setPassword.mutateAsync(
      props.mode === 'currentPassword'
        ? { currentPassword, newPassword }
        : { resetToken: props.resetToken ?? '', resetType: props.mode, newPassword },
    );
    setDone(result.message);
    setCurrentPassword('');
    setNewPassword('');
    setConfirm('');
  };

  if (done && props.mode !== 'currentPassword') {
    return (
      <Alert color="teal" role="status">
        {done}.{' '}
        <Anchor component={Link} to="/login">
          Go to the sign-in page
        </Anchor>
      </Alert>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={420}>
        {done && (
          <Alert color="teal" role="status">
            {done}
          </Alert>
        )}
        {setPassword.error && (
          <Alert color="red" role="alert">
            {setPassword.error.message}
          </Alert>
        )}
        {rules.error && <Alert color="red">Could not load the password rules: {rules.error.message}</Alert>}
        {props.mode === 'currentPassword' && (
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            value={currentPassword}
            error={setPassword.isError && currentPassword === '' ? MSG_FIELD_REQUIRED_EMPTY : undefined}
            onChange={(e) => setCurrentPassword(e.currentTarget.value)}
          />
        )}
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          required
          value={newPassword}
          onChange={(e) => setNewPassword(e.currentTarget.value)}
        />
        {strength && newPassword !== '' && (
          <Stack gap={4}>
            <Progress
              value={strength.bar}
              color={STRENGTH_COLOR[strength.level]}
              aria-label={`Password strength: ${strength.level}`}
            />
            <Text size="xs" c="dimmed">
              Strength: {strength.level}
            </Text>
          </Stack>
        )}
        {outcomes.length > 0 && (
          <List size="sm" spacing={2} listStyleType="none">
            {outcomes.map((o) => (
              <List.Item key={o.rule} c={o.passed ? 'teal' : 'dimmed'}>
                {o.passed ? '✓' : '•'} {o.message}
              </List.Item>
            ))}
          </List>
        )}
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          required
          value={confirm}
          error={mismatch ? MSG_PASSWORD_MISMATCH : undefined}
          onChange={(e) => setConfirm(e.currentTarget.value)}
        />
        <Button type="submit" disabled={!valid} loading={setPassword.isPending} w="fit-content">
          {props.mode === 'currentPassword'
            ? 'Change password'
            : props.mode === 'registration'
              ? 'Set password'
              : 'Reset password'}
        </Button>
      </Stack>
    </form>
  );
};
