import { NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import type { FormSchema, FormValues, PublishModule } from '@media/contract';

type FormProps = {
  schema: FormSchema;
  values: FormValues;
  onChange: (values: FormValues, state: { valid: boolean; dirty: boolean }) => void;
  disabled?: boolean;
};

// PLACEHOLDER until helper E's DynamicForm (ui/dynamic-form/DynamicForm.tsx) is committed: same props,
// text, number and select fields only. Replace `OptionsForm` with DynamicForm then.
const OptionsForm = ({ schema, values, onChange, disabled }: FormProps) => {
  const set = (name: string, value: FormValues[string]) => {
    const next = { ...values, [name]: value };
    const valid = schema.every(
      (item) => !item.required || (next[item.name] !== '' && next[item.name] != null),
    );
    onChange(next, { valid, dirty: true });
  };
  return (
    <Stack gap="xs">
      {schema.map((item) => {
        const common = { label: item.label ?? item.name, required: item.required, disabled };
        if (item.allowedValues)
          return (
            <Select
              key={item.name}
              {...common}
              data={item.allowedValues.map(String)}
              value={values[item.name] == null ? null : String(values[item.name])}
              onChange={(next) => set(item.name, next)}
            />
          );
        if (item.type === 'integer' || item.type === 'number')
          return (
            <NumberInput
              key={item.name}
              {...common}
              value={(values[item.name] as number | undefined) ?? ''}
              onChange={(next) => set(item.name, next === '' ? null : Number(next))}
            />
          );
        return (
          <TextInput
            key={item.name}
            {...common}
            value={String(values[item.name] ?? '')}
            onChange={(e) => set(item.name, e.currentTarget.value)}
          />
        );
      })}
    </Stack>
  );
};

/** The options of one network node, as its module's form (spec3 §3 schema items). */
export const NodeOptions = (props: {
  module: PublishModule | undefined;
  options: Record<string, unknown>;
  disabled?: boolean;
  onChange: (options: Record<string, unknown>, valid: boolean) => void;
}) => {
  if (!props.module) return null;
  if (props.module.schema.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {props.module.name} has no options.
      </Text>
    );
  return (
    <OptionsForm
      schema={props.module.schema}
      values={props.options as FormValues}
      disabled={props.disabled}
      onChange={(values, { valid }) => props.onChange(values, valid)}
    />
  );
};
