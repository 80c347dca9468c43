import {
  Autocomplete,
  Button,
  Checkbox,
  Fieldset,
  Group,
  MultiSelect,
  NativeSelect,
  NumberInput,
  PasswordInput,
  Radio,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  characterCounter,
  characterLimit,
  FORM_MESSAGES,
  type FormSchemaItem,
  type FormValue,
  type FormValues,
  hasEmptyOption,
  inputKindOrError,
  selectOptions,
  tagSuggestionsOfOptions,
} from '@media/contract';
import type { ReactNode } from 'react';
import { TagInput } from '../TagInput.tsx';

export type FieldProps = {
  item: FormSchemaItem;
  value: FormValue | undefined;
  values: FormValues;
  /** The messages shown under the field (required error first). */
  messages: string[];
  required: boolean;
  disabled: boolean;
  onChange: (value: FormValue) => void;
  onBlur: () => void;
  onAction: (action: string) => void;
  /** Renders a nested field (of a group). */
  renderField: (item: FormSchemaItem) => ReactNode;
};

const text = (value: FormValue | undefined) => (value === null || value === undefined ? '' : String(value));
const list = (value: FormValue | undefined) =>
  Array.isArray(value) ? value : value === null || value === undefined || value === '' ? [] : [String(value)];

/** Label, placeholder, messages and state every input shares; the label names the input for assistive tech. */
const common = (props: FieldProps) => ({
  label: props.item.label ?? props.item.name,
  required: props.required,
  disabled: props.disabled,
  error: props.messages.length > 0 ? props.messages.join(' ') : undefined,
  onBlur: props.onBlur,
  'data-field': props.item.name,
});

/** The character counter (spec3 §5) sits under the input, as its description. */
const counted = (props: FieldProps) => {
  const counter = characterCounter(props.value, characterLimit(props.item));
  return counter
    ? {
        description: counter,
        inputWrapperOrder: ['label', 'input', 'description', 'error'] as (
          | 'label'
          | 'input'
          | 'description'
          | 'error'
        )[],
      }
    : {};
};

const choiceData = (props: FieldProps) =>
  selectOptions(props.item, props.value).map((option) => ({ value: option.value, label: option.label }));

/** One field of a dynamic form, by the input its type maps to (spec3 §5 Field type mapping). */
export const FormField = (props: FieldProps) => {
  const { item, value } = props;
  const mapped = inputKindOrError(item);
  if ('error' in mapped)
    return (
      <Text c="red" size="sm" role="alert" data-field={item.name}>
        {mapped.error}
      </Text>
    );
  const readOnly = item.readOnly === true || item.readonly === true;
  switch (mapped.kind) {
    case 'hidden':
      return null;
    case 'text':
    case 'email':
    case 'url':
    case 'directory':
    case 'readonly':
      return (
        <TextInput
          {...common(props)}
          {...counted(props)}
          // spec3 §5: emailAddress is a text input (with the email keyboard), checked by the form's own rule.
          type={mapped.kind === 'url' ? 'url' : 'text'}
          inputMode={mapped.kind === 'email' ? 'email' : undefined}
          readOnly={readOnly || mapped.kind === 'readonly'}
          placeholder={item.placeholder}
          value={text(value)}
          onChange={(event) => props.onChange(event.currentTarget.value)}
        />
      );
    case 'password':
      return (
        <PasswordInput
          {...common(props)}
          readOnly={readOnly}
          placeholder={item.placeholder}
          value={text(value)}
          onChange={(event) => props.onChange(event.currentTarget.value)}
        />
      );
    case 'textarea':
      return (
        <Textarea
          {...common(props)}
          {...counted(props)}
          autosize
          minRows={3}
          readOnly={readOnly}
          placeholder={item.placeholder}
          value={text(value)}
          onChange={(event) => props.onChange(event.currentTarget.value)}
        />
      );
    case 'number':
      return (
        <NumberInput
          {...common(props)}
          readOnly={readOnly}
          placeholder={item.placeholder}
          allowDecimal={item.type !== 'integer'}
          min={item.minValue}
          max={item.maxValue}
          step={item.evenNumber ? 2 : 1}
          value={typeof value === 'number' || typeof value === 'string' ? value : ''}
          onChange={(next) => props.onChange(next === '' ? null : next)}
        />
      );
    case 'checkbox':
      return (
        <Checkbox
          {...common(props)}
          checked={value === true}
          onChange={(event) => props.onChange(event.currentTarget.checked)}
        />
      );
    case 'toggle':
      return (
        <Switch
          {...common(props)}
          checked={value === true}
          onChange={(event) => props.onChange(event.currentTarget.checked)}
        />
      );
    case 'select': {
      const options = choiceData(props);
      // A placeholder entry stands for "no value" unless the schema offers its own empty option.
      const data = hasEmptyOption(item)
        ? options
        : [
            {
              value: '',
              label: item.placeholder ?? FORM_MESSAGES.selectPlaceholder,
              disabled: props.required,
            },
            ...options,
          ];
      return (
        <NativeSelect
          {...common(props)}
          data={data}
          value={text(value)}
          onChange={(event) => {
            const chosen = event.currentTarget.value;
            const allowed = item.allowedValues?.find((one) => String(one) === chosen);
            props.onChange(chosen === '' ? '' : (allowed ?? chosen));
          }}
        />
      );
    }
    case 'combo':
      // selectOnly: the value must be one of the options, so the combo is a searchable select.
      if (item.selectOnly)
        return (
          <Select
            {...common(props)}
            searchable
            clearable={!props.required}
            placeholder={item.placeholder ?? FORM_MESSAGES.selectPlaceholder}
            data={choiceData(props).filter((option) => option.value !== '')}
            value={text(value) === '' ? null : text(value)}
            onChange={(next) => props.onChange(next ?? '')}
          />
        );
      return (
        <Autocomplete
          {...common(props)}
          placeholder={item.placeholder}
          data={choiceData(props).map((option) => option.value)}
          value={text(value)}
          onChange={(next) => props.onChange(next)}
        />
      );
    case 'autocomplete':
      return (
        <Autocomplete
          {...common(props)}
          placeholder={item.placeholder}
          data={choiceData(props).map((option) => option.value)}
          value={text(value)}
          onChange={(next) => props.onChange(next)}
        />
      );
    case 'radio':
      return (
        <Radio.Group
          {...common(props)}
          value={text(value)}
          onChange={(next) => props.onChange(item.allowedValues?.find((one) => String(one) === next) ?? next)}
        >
          <Group gap="md" mt={4}>
            {choiceData(props).map((option) => (
              <Radio key={option.value} value={option.value} label={option.label} disabled={props.disabled} />
            ))}
          </Group>
        </Radio.Group>
      );
    case 'multiple':
      return (
        <MultiSelect
          {...common(props)}
          placeholder={item.placeholder}
          data={choiceData(props)}
          value={list(value)}
          onChange={(next) => props.onChange(next)}
        />
      );
    case 'tags':
    case 'custom':
      return (
        <TagInput
          {...common(props)}
          placeholder={item.placeholder}
          suggestions={tagSuggestionsOfOptions(item.options)}
          value={list(value)}
          onChange={(next) => props.onChange(next)}
        />
      );
    case 'static':
      return (
        <Stack gap={2} data-field={item.name}>
          {item.label && (
            <Text size="sm" fw={500}>
              {item.label}
            </Text>
          )}
          <Text size="sm">{text(value ?? item.defaultValue)}</Text>
        </Stack>
      );
    case 'group':
      return (
        <Fieldset legend={item.label} disabled={props.disabled} data-field={item.name}>
          <Stack gap="sm">{(item.groupFields ?? []).map((field) => props.renderField(field))}</Stack>
        </Fieldset>
      );
    case 'button':
      return (
        <Group>
          <Button
            variant="default"
            disabled={props.disabled}
            data-field={item.name}
            onClick={() => props.onAction(item.action ?? item.name)}
          >
            {item.label ?? item.name}
          </Button>
        </Group>
      );
  }
};
