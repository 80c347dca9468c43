import { Checkbox, NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { type ArrivalsFolderType, EDGE_MESSAGES } from '@media/contract';
import type { OptionValue } from './folder-form.ts';

/** The options of a folder's type, one control per option definition. */
export const FolderOptions = ({
  type,
  values,
  errors,
  disabled,
  onChange,
}: {
  type: ArrivalsFolderType | undefined;
  values: Record<string, OptionValue>;
  errors: Record<string, string>;
  disabled: boolean;
  onChange: (name: string, value: OptionValue) => void;
}) => {
  if (!type || type.options.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {type.options.map((option) => {
        const value = values[option.name];
        const common = {
          label: option.label,
          required: option.required,
          error: errors[option.name],
          disabled,
        };
        switch (option.kind) {
          case 'boolean':
            return (
              <Checkbox
                key={option.name}
                mt={{ base: 0, sm: 30 }}
                label={option.label}
                disabled={disabled}
                checked={value === true}
                onChange={(e) => onChange(option.name, e.currentTarget.checked)}
              />
            );
          case 'number':
            return (
              <NumberInput
                key={option.name}
                {...common}
                value={typeof value === 'number' ? value : ''}
                onChange={(next) => onChange(option.name, next === '' ? '' : Number(next))}
              />
            );
          case 'select':
            return (
              <Select
                key={option.name}
                {...common}
                placeholder={EDGE_MESSAGES.selectPlaceholder}
                data={option.choices ?? []}
                value={typeof value === 'string' && value ? value : null}
                onChange={(next) => onChange(option.name, next ?? '')}
              />
            );
          default:
            return (
              <TextInput
                key={option.name}
                {...common}
                value={String(value ?? '')}
                onChange={(e) => onChange(option.name, e.currentTarget.value)}
              />
            );
        }
      })}
    </SimpleGrid>
  );
};
