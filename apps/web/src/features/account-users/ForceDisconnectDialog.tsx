import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { DEFAULT_DISCONNECT_MESSAGE, MSG_DISCONNECT_REQUIRED } from '@media/contract';
import { type FormEvent, useEffect, useState } from 'react';

/** spec1 §2 / §5: asks for the message the disconnected user will see; a message is required. */
export const ForceDisconnectDialog = (props: {
  names: string[];
  opened: boolean;
  busy: boolean;
  onClose: () => void;
  onDisconnect: (message: string) => void;
}) => {
  const [message, setMessage] = useState(DEFAULT_DISCONNECT_MESSAGE);
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (props.opened) {
      setMessage(DEFAULT_DISCONNECT_MESSAGE);
      setTouched(false);
    }
  }, [props.opened]);
  const missing = message.trim() === '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!missing) props.onDisconnect(message.trim());
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Disconnect" centered>
      <form noValidate onSubmit={submit}>
        <Stack>
          <Text size="sm">
            Disconnect {props.names.join(', ')}? {props.names.length === 1 ? 'They' : 'Each'} will see this
            message:
          </Text>
          <Textarea
            label="Message"
            autosize
            minRows={3}
            value={message}
            onChange={(event) => setMessage(event.currentTarget.value)}
            onBlur={() => setTouched(true)}
            error={touched && missing ? MSG_DISCONNECT_REQUIRED : undefined}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={props.busy}>
              Disconnect
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};
