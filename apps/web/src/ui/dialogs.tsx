import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { MSG_INPUT_REQUIRED } from '@media/contract';
import { type FormEvent, type ReactNode, useState } from 'react';
import { modalsManager } from './modals-ready.ts';

export type ConfirmOptions = {
  title?: string;
  subtitle?: string;
  message?: ReactNode;
  confirmLabel?: string;
  /** Without a cancel label the dialog offers only the confirm button. */
  cancelLabel?: string | null;
  danger?: boolean;
};

/** The confirm dialog of spec2 §2; resolves true when confirmed, false when cancelled or closed. */
export const confirmDialog = async (options: ConfirmOptions): Promise<boolean> => {
  await modalsManager();
  return new Promise((resolve) => {
    let answered = false;
    const answer = (value: boolean) => {
      if (answered) return;
      answered = true;
      resolve(value);
    };
    const id = modals.open({
      title: options.title,
      centered: true,
      onClose: () => answer(false),
      children: (
        <Stack gap="sm">
          {options.subtitle && <Text fw={600}>{options.subtitle}</Text>}
          {options.message && <Text size="sm">{options.message}</Text>}
          <Group justify="flex-end" mt="sm">
            {options.cancelLabel !== null && (
              <Button
                variant="default"
                onClick={() => {
                  answer(false);
                  modals.close(id);
                }}
              >
                {options.cancelLabel ?? 'Cancel'}
              </Button>
            )}
            <Button
              color={options.danger ? 'red' : undefined}
              data-autofocus
              onClick={() => {
                answer(true);
                modals.close(id);
              }}
            >
              {options.confirmLabel ?? 'OK'}
            </Button>
          </Group>
        </Stack>
      ),
    });
  });
};

export type TextInputDialogOptions = {
  title?: string;
  message?: ReactNode;
  label?: string;
  initialValue?: string;
  confirmLabel?: string;
  cancelLabel?: string | null;
};

const TextInputDialogBody = (
  props: TextInputDialogOptions & { onDone: (value: string | undefined) => void },
) => {
  const [value, setValue] = useState(props.initialValue ?? '');
  const [touched, setTouched] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (value.trim()) props.onDone(value);
  };
  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="sm">
        {props.message && <Text size="sm">{props.message}</Text>}
        <TextInput
          label={props.label ?? 'Value'}
          required
          data-autofocus
          value={value}
          error={touched && !value.trim() ? MSG_INPUT_REQUIRED : undefined}
          onBlur={() => setTouched(true)}
          onChange={(e) => {
            setTouched(true);
            setValue(e.currentTarget.value);
          }}
        />
        <Group justify="flex-end">
          {props.cancelLabel !== null && (
            <Button variant="default" onClick={() => props.onDone(undefined)}>
              {props.cancelLabel ?? 'Cancel'}
            </Button>
          )}
          <Button type="submit">{props.confirmLabel ?? 'OK'}</Button>
        </Group>
      </Stack>
    </form>
  );
};

/** The text-input dialog of spec2 §2: required ('Input required'); resolves the text, or undefined. */
export const textInputDialog = async (options: TextInputDialogOptions): Promise<string | undefined> => {
  await modalsManager();
  return new Promise((resolve) => {
    let answered = false;
    const done = (value: string | undefined) => {
      if (answered) return;
      answered = true;
      resolve(value);
      modals.close(id);
    };
    const id = modals.open({
      title: options.title ?? 'Enter a value',
      centered: true,
      onClose: () => done(undefined),
      children: <TextInputDialogBody {...options} onDone={done} />,
    });
  });
};
