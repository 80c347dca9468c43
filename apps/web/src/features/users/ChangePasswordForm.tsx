import { Alert, Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { MSG_FIELD_REQUIRED_EMPTY, type ResetType } from '@media/contract';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useSetPassword } from '../../api/users.ts';
import { NewPasswordFields, useNewPassword } from './NewPasswordFields.tsx';

export type ChangePasswordMode = 'currentPassword' | ResetType;

export const ChangePasswordForm = (props: {
  userId: number;
  username?: string;
  mode: ChangePasswordMode;
  resetToken?: string;
}) => {
  const setPassword = useSetPassword(props.userId);
  const password = useNewPassword(props.username ?? '');
  const [currentPassword, setCurrentPassword] = useState('');
  // spec1 §5: the empty current password is called out once the field was touched (left or typed in).
  const [currentTouched, setCurrentTouched] = useState(false);
  const [done, setDone] = useState<string>();
  const { newPassword } = password;
  const valid = password.valid && (props.mode !== 'currentPassword' || currentPassword !== '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    const result = await setPassword
      .mutateAsync(
        props.mode === 'currentPassword'
          ? { currentPassword, newPassword }
          : { resetToken: props.resetToken ?? '', resetType: props.mode, newPassword },
      )
      // The failure is shown from the mutation's error.
      .catch(() => undefined);
    if (!result) return;
    setDone(result.message);
    setCurrentPassword('');
    setCurrentTouched(false);
    password.clear();
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
        {props.mode === 'currentPassword' && (
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            value={currentPassword}
            error={
              (currentTouched || setPassword.isError) && currentPassword === ''
                ? MSG_FIELD_REQUIRED_EMPTY
                : undefined
            }
            onBlur={() => setCurrentTouched(true)}
            onChange={(e) => {
              setCurrentTouched(true);
              setCurrentPassword(e.currentTarget.value);
            }}
          />
        )}
        <NewPasswordFields state={password} />
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
