import { NumberInput, Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { EDGE_MESSAGES, type OptionDefinition } from '@media/contract';

export type OptionValue = string | number | boolean;

/** An option's default in its own kind: numbers as numbers, flags as booleans. */
export const defaultOptionValue = (definition: OptionDefinition): OptionValue =>
  definition.kind === 'number'
    ? Number(definition.default) || 0
    : definition.kind === 'boolean'
      ? definition.default === 'true'
      : definition.default;

const isBlank = (value: OptionValue | undefined) => value === undefined || String(value).trim() === '';

/** Whether every required option has a value. */
export const requiredOptionsFilled = (
  definitions: readonly OptionDefinition[],
  value: (name: string) => OptionValue | undefined,
) => definitions.every((definition) => !definition.required || !isBlank(value(definition.name)));

/** The inputs of a service's or endpoint's options, drawn from its type's option definitions. */
export const OptionFields = (props: {
  definitions: readonly OptionDefinition[];
  value: (name: string) => OptionValue | undefined;
  onChange: (name: string, value: OptionValue) => void;
  disabled?: boolean;
}) => {
  if (props.definitions.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
      {props.definitions.map((definition) => {
        const value = props.value(definition.name);
        const error =
          definition.required && isBlank(value) && value !== undefined ? EDGE_MESSAGES.required : undefined;
        switch (definition.kind) {
          case 'boolean':
            return (
              <Switch
                key={definition.name}
                mt="lg"
                label={definition.label}
                disabled={props.disabled}
                checked={value === true || value === 'true'}
                onChange={(e) => props.onChange(definition.name, e.currentTarget.checked)}
              />
            );
          case 'number':
            return (
              <NumberInput
                key={definition.name}
                label={definition.label}
                required={definition.required}
                disabled={props.disabled}
                error={error}
                value={value === undefined ? '' : Number(value)}
                onChange={(next) => props.onChange(definition.name, typeof next === 'number' ? next : '')}
              />
            );
          case 'select':
            return (
              <Select
                key={definition.name}
                label={definition.label}
                required={definition.required}
                disabled={props.disabled}
                placeholder={EDGE_MESSAGES.selectPlaceholder}
                data={definition.choices ?? []}
                allowDeselect={!definition.required}
                value={value === undefined || value === '' ? null : String(value)}
                onChange={(next) => props.onChange(definition.name, next ?? '')}
                error={error}
              />
            );
          default:
            return (
              <TextInput
                key={definition.name}
                label={definition.label}
                required={definition.required}
                disabled={props.disabled}
                error={error}
                value={value === undefined ? '' : String(value)}
                onChange={(e) => props.onChange(definition.name, e.currentTarget.value)}
              />
            );
        }
      })}
    </SimpleGrid>
  );
};
