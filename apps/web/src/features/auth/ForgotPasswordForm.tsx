import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { usePasswordReset } from '../../api/auth.ts';

export const ForgotPasswordForm = ({
  initialUsername,
  onBack,
}: {
  initialUsername: string;
  onBack: () => void;
}) => {
  const reset = usePasswordReset();
  const [username, setUsername] = useState(initialUsername);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset.mutate(username.trim());
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {reset.data && (
          <Alert color="green" role="status">
            {reset.data.message}
          </Alert>
        )}
        {reset.error && (
          <Alert color="red" role="alert">
            {reset.error.message}
          </Alert>
        )}
        <TextInput
          label="Username or email"
          autoComplete="username"
          required
          autoFocus
          value={username}
          onChange={(e) => setUsername(e.currentTarget.value)}
        />
        <Button type="submit" loading={reset.isPending} disabled={!username.trim()}>
          Send reset link
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={onBack}>
          Back to sign-in
        </Anchor>
      </Stack>
    </form>
  );
};
