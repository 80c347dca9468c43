import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { NODE_NAME_MAX, nodeRenameSchema } from '@media/contract';
import { type FormEvent, useState } from 'react';
import { useReturnFocusOnUnmount } from '../../ui/useReturnFocus.ts';

/** The contract's name rule, so the dialog says what the server would before it is asked. */
const nameError = (name: string) => {
  const result = nodeRenameSchema.shape.name.safeParse(name);
  return result.success ? undefined : result.error.issues[0]?.message;
};

type NameDialogProps = {
  title: string;
  label: string;
  confirmLabel: string;
  initialName?: string;
  /** Resolves when saved; a refusal's message (409 name taken, 400) stays in the dialog. */
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
};

/** New folder and Rename: one name, checked as typed, the server's refusal shown in place. */
export const NameDialog = (props: NameDialogProps) => {
  useReturnFocusOnUnmount();
  const [name, setName] = useState(props.initialName ?? '');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const error = touched ? nameError(name) : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (nameError(name) || saving) return;
    setSaving(true);
    setServerError(null);
    try {
      await props.onSubmit(name.trim());
      props.onClose();
    } catch (failure) {
      setServerError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened onClose={props.onClose} title={props.title} centered>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack gap="sm">
          <TextInput
            label={props.label}
            required
            data-autofocus
            maxLength={NODE_NAME_MAX + 1}
            value={name}
            error={error ?? serverError}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setTouched(true);
              setServerError(null);
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving} disabled={Boolean(error)}>
              {props.confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};
