import { Alert, List, PasswordInput, Popover, Progress, Stack, Text } from '@mantine/core';
import { useDebouncedValue, useViewportSize } from '@mantine/hooks';
import {
  checkPassword,
  MSG_PASSWORD_MISMATCH,
  passwordStrength,
  passwordTooltipOffset,
} from '@media/contract';
import { type ReactNode, useState } from 'react';
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

/** The rules and whether the new password passes each, in the tooltip of spec1 §9 beside the field. */
const RulesTooltip = ({
  state,
  children,
}: {
  state: ReturnType<typeof useNewPassword>;
  children: ReactNode;
}) => {
  const [focused, setFocused] = useState(false);
  const { width } = useViewportSize();
  const offset = passwordTooltipOffset(width);
  return (
    <Popover
      opened={focused && state.outcomes.length > 0}
      position="bottom-start"
      offset={{ mainAxis: offset.y, crossAxis: offset.x }}
      withArrow={false}
      // The dropdown names itself; Mantine's roles would label it by the whole field, label included.
      withRoles={false}
      shadow="md"
    >
      <Popover.Target>
        <div onFocusCapture={() => setFocused(true)} onBlurCapture={() => setFocused(false)}>
          {children}
        </div>
      </Popover.Target>
      <Popover.Dropdown aria-label="Password rules" role="tooltip">
        <List size="sm" spacing={2} listStyleType="none">
          {state.outcomes.map((o) => {
            // Nothing typed meets nothing yet: "Does not contain the user name" is no achievement when empty.
            const met = o.passed && state.newPassword !== '';
            return (
              <List.Item key={o.rule} c={met ? 'teal' : 'dimmed'}>
                {met ? '✓' : '•'} {o.message}
              </List.Item>
            );
          })}
        </List>
      </Popover.Dropdown>
    </Popover>
  );
};

export const NewPasswordFields = ({ state }: { state: ReturnType<typeof useNewPassword> }) => (
  <>
    {state.rules.error && (
      <Alert color="red">Could not load the password rules: {state.rules.error.message}</Alert>
    )}
    <RulesTooltip state={state}>
      <PasswordInput
        label="New password"
        autoComplete="new-password"
        required
        value={state.newPassword}
        onChange={(e) => state.setNewPassword(e.currentTarget.value)}
      />
    </RulesTooltip>
    {state.strength && state.newPassword !== '' && (
      <Stack gap={4}>
        <Progress
          value={state.strength.bar}
          color={STRENGTH_COLOR[state.strength.level]}
          aria-label={`Password strength: ${state.strength.level}`}
        />
        <Text size="xs" c="dimmed">
          Strength: {state.strength.level}
          {state.outcomes.some((o) => !o.passed)
            ? ` — ${state.outcomes.filter((o) => !o.passed).length} rule(s) not met`
            : ''}
        </Text>
      </Stack>
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
