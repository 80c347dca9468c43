import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { newButtonChoices, PUBLISH_MESSAGES, type PublishModule } from '@media/contract';
import { type FormEvent, useState } from 'react';

export type NewButtonChoice = { processModuleId: string; destinationModuleId: string };

type Props = {
  opened: boolean;
  modules: readonly PublishModule[];
  onClose: () => void;
  onCreate: (choice: NewButtonChoice) => void;
};

/**
 * spec3 §2 'Add Publishing Button': Source Processing and Destination, each shown only when there is more
 * than one choice, each defaulting to the first; both required; Cancel and Create.
 */
export const AddButtonDialog = ({ opened, modules, onClose, onCreate }: Props) => (
  <Modal opened={opened} onClose={onClose} title={PUBLISH_MESSAGES.addTitle} centered>
    {/* Mounted afresh on each opening, so the selects start on their first choices. */}
    {opened && <AddButtonForm modules={modules} onClose={onClose} onCreate={onCreate} />}
  </Modal>
);

const AddButtonForm = ({ modules, onClose, onCreate }: Omit<Props, 'opened'>) => {
  const { sourceProcessing, destinations } = newButtonChoices(modules);
  const [processModuleId, setProcess] = useState<string | null>(sourceProcessing[0]?.id ?? null);
  const [destinationModuleId, setDestination] = useState<string | null>(destinations[0]?.id ?? null);
  const valid = Boolean(processModuleId && destinationModuleId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (processModuleId && destinationModuleId) onCreate({ processModuleId, destinationModuleId });
  };
  const options = (list: readonly PublishModule[]) => list.map((m) => ({ value: m.id, label: m.name }));

  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="sm">
        {sourceProcessing.length > 1 && (
          <Select
            label={PUBLISH_MESSAGES.sourceProcessing}
            required
            data-autofocus
            allowDeselect={false}
            data={options(sourceProcessing)}
            value={processModuleId}
            onChange={setProcess}
            error={processModuleId ? undefined : PUBLISH_MESSAGES.required}
          />
        )}
        {destinations.length > 1 && (
          <Select
            label={PUBLISH_MESSAGES.destination}
            required
            allowDeselect={false}
            data={options(destinations)}
            value={destinationModuleId}
            onChange={setDestination}
            error={destinationModuleId ? undefined : PUBLISH_MESSAGES.required}
          />
        )}
        {sourceProcessing.length <= 1 && destinations.length <= 1 && (
          <Text size="sm">A new publishing button will be added.</Text>
        )}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!valid}>
            Create
          </Button>
        </Group>
      </Stack>
    </form>
  );
};
