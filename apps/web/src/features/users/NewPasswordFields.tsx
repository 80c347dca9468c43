import { Alert, List, PasswordInput, Progress, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { checkPassword, MSG_PASSWORD_MISMATCH, passwordStrength } from '@media/contract';
import { useState } from 'react';
import { usePasswordRules } from '../../api/users.ts';

const STRENGTH_COLOR = { unsafe: 'red', moderate: 'yellow', safe: 'teal' } as const;
/** spec1 §5: the confirmation is checked a second after typing stops. */
const CONFIRM_CHECK_DELAY_MS = 1000;

/** The new password and its confirmation, checked against the server's rules (spec1 §5). */
export const useNewPassword = (username: string) => {
  const rules = usePasswordRules();
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [debouncedConfirm] = useDebouncedValue(confirm, CONFIRM_CHECK_DELAY_MS);
  const outcomes = rules.data ? checkPassword(newPassword, username, rules.data) : [];
  const strength = rules.data ? passwordStrength(newPassword, username, rules.data) : undefined;
  return {
    rules,
    newPassword,
    setNewPassword,
    confirm,
    setConfirm,
    outcomes,
    strength,
    // Shown a second after typing stops, hidden at once when the text changes.
    mismatch: debouncedConfirm === confirm && confirm !== '' && confirm !== newPassword,
    valid: newPassword !== '' && confirm === newPassword && outcomes.every((o) => o.passed),
    clear: () => {
      setNewPassword('');
      setConfirm('');
    },
  };
};

export const NewPasswordFields = ({ state }: { state: ReturnType<typeof useNewPassword> }) => (
  <>
    {state.rules.error && (
      <Alert color="red">Could not load the password rules: {state.rules.error.message}</Alert>
    )}
    <PasswordInput
      label="New password"
      autoComplete="new-password"
      required
      value={state.newPassword}
      onChange={(e) => state.setNewPassword(e.currentTarget.value)}
    />
    {state.strength && state.newPassword !== '' && (
      <Stack gap={4}>
        <Progress
          value={state.strength.bar}
          color={STRENGTH_COLOR[state.strength.level]}
          aria-label={`Password strength: ${state.strength.level}`}
        />
        <Text size="xs" c="dimmed">
          Strength: {state.strength.level}
        </Text>
      </Stack>
    )}
    {state.outcomes.length > 0 && (
      <List size="sm" spacing={2} listStyleType="none">
        {state.outcomes.map((o) => (
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
      value={state.confirm}
      error={state.mismatch ? MSG_PASSWORD_MISMATCH : undefined}
      onChange={(e) => state.setConfirm(e.currentTarget.value)}
    />
  </>
);
