import { Alert, Badge, Button, Code, Group, Image, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useMfaConfirm, useMfaDisable, useMfaEnrol, useMfaStatus } from '../../api/users.ts';

/** TOTP enrolment: QR code and secret, confirmed by a first code; recovery codes shown once. */
export const SecondFactorSection = ({ userId }: { userId: number }) => {
  const status = useMfaStatus(userId);
  const enrol = useMfaEnrol(userId);
  const confirm = useMfaConfirm(userId);
  const disable = useMfaDisable(userId);
  const [code, setCode] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();

  if (status.isPending) return <Text c="dimmed">Loading…</Text>;
  if (status.isError)
    return <Alert color="red">Could not load the second-factor status: {status.error.message}</Alert>;

  const submitConfirm = async (event: FormEvent) => {
    event.preventDefault();
    const result = await confirm.mutateAsync(code.trim());
    setRecoveryCodes(result.recoveryCodes);
    enrol.reset();
    setCode('');
  };
  const submitDisable = async (event: FormEvent) => {
    event.preventDefault();
    await disable.mutateAsync(code.trim());
    setCode('');
    setRecoveryCodes(undefined);
  };
  const error = enrol.error ?? confirm.error ?? disable.error;

  return (
    <Stack gap="sm" maw={520}>
      <Group gap="xs">
        <Text>Two-factor authentication</Text>
        <Badge color={status.data.enabled ? 'teal' : 'gray'}>{status.data.enabled ? 'On' : 'Off'}</Badge>
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {error.message}
        </Alert>
      )}
      {recoveryCodes && (
        <Alert color="yellow" title="Your recovery codes" data-testid="recovery-codes">
          <Text size="sm">
            Keep these somewhere safe. Each signs you in once in place of a code. They are shown only now.
          </Text>
          <SimpleGrid cols={2} mt="xs">
            {recoveryCodes.map((c) => (
              <Code key={c}>{c}</Code>
            ))}
          </SimpleGrid>
        </Alert>
      )}
      {status.data.enabled ? (
        <form noValidate onSubmit={submitDisable}>
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {status.data.recoveryCodesLeft} recovery codes left. To turn the second factor off, enter a
              code.
            </Text>
            <TextInput
              label="Verification Code"
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              w={240}
            />
            <Button
              type="submit"
              color="red"
              variant="light"
              disabled={!code.trim()}
              loading={disable.isPending}
              w="fit-content"
            >
              Turn off
            </Button>
          </Stack>
        </form>
      ) : enrol.data ? (
        <form noValidate onSubmit={submitConfirm}>
          <Stack gap="xs">
            <Text size="sm">Scan this code with an authenticator app, then enter the code it shows.</Text>
            <Image src={enrol.data.qrCode} alt="QR code for the authenticator app" w={180} h={180} />
            <Text size="sm">
              Or type the key: <Code data-testid="mfa-secret">{enrol.data.secret}</Code>
            </Text>
            <TextInput
              label="Verification Code"
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              w={240}
            />
            <Button type="submit" disabled={!code.trim()} loading={confirm.isPending} w="fit-content">
              Confirm
            </Button>
          </Stack>
        </form>
      ) : (
        <Button onClick={() => enrol.mutate()} loading={enrol.isPending} w="fit-content">
          Set up two-factor authentication
        </Button>
      )}
    </Stack>
  );
};
