import { Button, Group, Modal, Stack } from '@mantine/core';
import { type FormSchema, type FormValues, initialValues, validateForm } from '@media/contract';
import { useEffect, useMemo, useState } from 'react';
import { showAlert } from '../alerts.tsx';
import { DynamicForm } from './DynamicForm.tsx';
import { reasonOf } from './server-actions.ts';

export type PublishOptionsDialogProps = {
  opened: boolean;
  title: string;
  schema: FormSchema;
  onCancel: () => void;
  onPublish: (values: FormValues) => Promise<void> | void;
};

/**
 * spec3 §2, §5: every option field of the publish dialog is required, so a select loses its empty option
 * (which would otherwise make it optional).
 */
export const requireEveryField = (schema: FormSchema): FormSchema =>
  schema.map((item) => {
    const { requiredIf: _conditional, ...rest } = item;
    const allowedValues = item.allowedValues?.filter((value) => value !== '');
    return allowedValues ? { ...rest, required: true, allowedValues } : { ...rest, required: true };
  });

/**
 * spec3 §2 Publish additional-options dialog: the title from the options, text, textarea or select fields,
 * all required; Cancel and Publish, Publish disabled while the form is invalid.
 */
export const PublishOptionsDialog = ({
  opened,
  title,
  schema,
  onCancel,
  onPublish,
}: PublishOptionsDialogProps) => {
  // Keyed by content, so a parent that rebuilds the schema on each render does not reset the answers.
  const schemaKey = JSON.stringify(schema);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the schema is read through its content key
  const required = useMemo(() => requireEveryField(schema), [schemaKey]);
  const [values, setValues] = useState<FormValues>(() => initialValues(required));
  const [publishing, setPublishing] = useState(false);
  // Each opening starts from the defaults.
  useEffect(() => {
    if (opened) setValues(initialValues(required));
  }, [opened, required]);
  const valid = validateForm(required, values).valid;

  const publish = async () => {
    if (!valid || publishing) return;
    setPublishing(true);
    try {
      await onPublish(values);
    } catch (error) {
      showAlert({ text: reasonOf(error), type: 'danger' });
    } finally {
      setPublishing(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Stack gap="md">
        <DynamicForm schema={required} values={values} onChange={setValues} disabled={publishing} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={publishing}>
            Cancel
          </Button>
          <Button onClick={() => void publish()} disabled={!valid} loading={publishing}>
            Publish
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
};
