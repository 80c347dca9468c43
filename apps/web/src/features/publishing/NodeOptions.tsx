import { Text } from '@mantine/core';
import type { FormValues, PublishModule, ServerFormAction } from '@media/contract';
import { DynamicForm } from '../../ui/dynamic-form/DynamicForm.tsx';

/** The options of one network node, as its module's form (spec3 §3 schema items, §4 Dynamic form). */
export const NodeOptions = (props: {
  module: PublishModule | undefined;
  options: Record<string, unknown>;
  disabled?: boolean;
  onChange: (options: Record<string, unknown>) => void;
  /** A field of type 'button' runs its module action (spec3 §4 Server form actions). */
  onAction: (moduleId: string, action: string, options: FormValues) => Promise<ServerFormAction>;
}) => {
  const { module } = props;
  if (!module) return null;
  if (module.schema.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {module.name} has no options.
      </Text>
    );
  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <Text component="legend" size="sm" fw={500} mb={4}>
        {module.name} options
      </Text>
      <DynamicForm
        schema={module.schema}
        values={props.options as FormValues}
        disabled={props.disabled}
        onChange={(values) => props.onChange(values)}
        onAction={(action, values) => props.onAction(module.id, action, values)}
      />
    </fieldset>
  );
};
