import { Box, Button, Group, Paper, Stack } from '@mantine/core';
import {
  type CustomValidators,
  FORM_VALIDATION_DEBOUNCE_MS,
  type FormSchema,
  type FormSchemaItem,
  type FormValidation,
  type FormValue,
  type FormValues,
  isFieldEnabled,
  isFieldShown,
  type ServerFormAction,
  validateForm,
} from '@media/contract';
import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { showAlert } from '../alerts.tsx';
import { FormField } from './FormField.tsx';
import { isFormDirty, shownMessages, withFieldValidation } from './form-state.ts';
import { reasonOf, runServerAction, screenBox } from './server-actions.ts';

export type DynamicFormProps = {
  schema: FormSchema;
  /**
   * Controlled values. The values of the first render are the pristine snapshot (until a submit succeeds):
   * render the form once its values are loaded, and give it a React key to start over with other values.
   */
  values: FormValues;
  onChange: (values: FormValues, state: { valid: boolean; dirty: boolean }) => void;
  /** Server-flagged fields (server-invalid), with the server's message. */
  serverErrors?: Record<string, string>;
  /** The sticky submit bar, shown only while the form is dirty. */
  submit?: { label: string; submittingLabel: string; onSubmit: (values: FormValues) => Promise<void> };
  /** Performs the action of a field of type 'button' (spec3 §4 Server form actions). */
  onAction?: (action: string, values: FormValues) => Promise<ServerFormAction>;
  disabled?: boolean;
  /** Named custom validators the schema's customValidator may refer to. */
  customValidators?: CustomValidators;
};

/**
 * The schema-driven form (spec3 §4 Dynamic form): validation on change, a full validation 500 ms later,
 * server-invalid fields, server form actions and an optional sticky submit bar.
 */
export const DynamicForm = (props: DynamicFormProps) => {
  const { schema, values, onChange, submit, onAction, customValidators } = props;
  const [pristine, setPristine] = useState<FormValues>(values);
  const [submitting, setSubmitting] = useState(false);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  // Server errors from a failed submit; a field's entry goes when the user changes that field.
  const [submitErrors, setSubmitErrors] = useState<Record<string, string>>({});
  const [changedSinceServer, setChangedSinceServer] = useState<Record<string, boolean>>({});
  // New server errors from the parent are shown again, even on fields changed since the last ones.
  const parentErrorsKey = JSON.stringify(props.serverErrors ?? {});
  const [seenParentErrors, setSeenParentErrors] = useState(parentErrorsKey);
  if (seenParentErrors !== parentErrorsKey) {
    setSeenParentErrors(parentErrorsKey);
    setChangedSinceServer({});
  }

  const serverErrors = useMemo(() => {
    const merged: Record<string, string> = {};
    for (const [name, message] of Object.entries({ ...props.serverErrors, ...submitErrors }))
      if (!changedSinceServer[name]) merged[name] = message;
    return merged;
  }, [props.serverErrors, submitErrors, changedSinceServer]);

  const validation = useMemo(
    () => validateForm(schema, values, serverErrors, customValidators),
    [schema, values, serverErrors, customValidators],
  );
  const dirty = isFormDirty(values, pristine);

  // What the fields show: the changed field at once, every field after the debounced full validation.
  const [display, setDisplay] = useState<FormValidation>(validation);
  const latest = useRef(validation);
  latest.current = validation;
  // Keyed by content: a parent re-rendering with equal values must not keep postponing the full validation.
  const validationKey = JSON.stringify(validation);
  // biome-ignore lint/correctness/useExhaustiveDependencies: restarts on a changed result only, read via the ref
  useEffect(() => {
    const timer = setTimeout(() => setDisplay(latest.current), FORM_VALIDATION_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [validationKey]);

  const change = useCallback(
    (name: string, value: FormValue) => {
      const next = { ...values, [name]: value };
      const nextServerErrors = { ...serverErrors };
      delete nextServerErrors[name];
      const full = validateForm(schema, next, nextServerErrors, customValidators);
      setChangedSinceServer((current) => ({ ...current, [name]: true }));
      setTouched((current) => ({ ...current, [name]: true }));
      setDisplay((current) => withFieldValidation(current, name, full));
      onChange(next, { valid: full.valid, dirty: isFormDirty(next, pristine) });
    },
    [values, serverErrors, schema, customValidators, onChange, pristine],
  );

  const replaceValues = useCallback(
    (next: FormValues) => {
      const full = validateForm(schema, next, serverErrors, customValidators);
      onChange(next, { valid: full.valid, dirty: isFormDirty(next, pristine) });
    },
    [schema, serverErrors, customValidators, onChange, pristine],
  );

  const act = (action: string) => {
    if (!onAction) return;
    void runServerAction(action, values, onAction, {
      alert: (alert) => showAlert(alert),
      openWindow: (url, target, features) => window.open(url, target, features),
      screen: screenBox(),
      setValues: replaceValues,
    });
  };

  const onSubmit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!submit || submitting || !validation.valid) return;
    setSubmitting(true);
    try {
      await submit.onSubmit(values);
      setPristine(values);
      onChange(values, { valid: validation.valid, dirty: false });
      setSubmitErrors({});
      setChangedSinceServer({});
      setTouched({});
    } catch (error) {
      if (error instanceof ApiError && error.fields && Object.keys(error.fields).length > 0) {
        setSubmitErrors(error.fields);
        setChangedSinceServer({});
      } else showAlert({ text: reasonOf(error), type: 'danger' });
    } finally {
      setSubmitting(false);
    }
  };

  const renderField = (item: FormSchemaItem) => {
    if (!isFieldShown(item, values)) return null;
    return (
      <FormField
        key={item.name}
        item={item}
        value={values[item.name]}
        values={values}
        // A server-flagged field shows the server's message at once, not after the debounce.
        messages={shownMessages(
          serverErrors[item.name] ? validation : display,
          item.name,
          touched[item.name] === true,
        )}
        required={validation.requiredFields[item.name] === true}
        disabled={props.disabled === true || submitting || !isFieldEnabled(item, values)}
        onChange={(value) => change(item.name, value)}
        onBlur={() => setTouched((current) => ({ ...current, [item.name]: true }))}
        onAction={act}
        renderField={renderField}
      />
    );
  };

  return (
    <Box component="form" onSubmit={(event: FormEvent) => void onSubmit(event)} noValidate>
      <Stack gap="sm">{schema.map(renderField)}</Stack>
      {submit && dirty && (
        <Paper
          withBorder
          shadow="sm"
          p="sm"
          mt="md"
          pos="sticky"
          bottom={0}
          style={{ zIndex: 2 }}
          data-testid="dynamic-form-submit-bar"
        >
          <Group justify="flex-end">
            <Button type="submit" disabled={submitting || !validation.valid} loading={false}>
              {submitting ? submit.submittingLabel : submit.label}
            </Button>
          </Group>
        </Paper>
      )}
    </Box>
  );
};
