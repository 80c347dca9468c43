import { Alert, Button, Code, Group, Loader, Modal, ScrollArea, Stack, TextInput } from '@mantine/core';
import { INGEST_MESSAGES, type IngestQueueItem } from '@media/contract';
import { type FormEvent, useState } from 'react';
import { useChangeItem, useItemLog } from '../../api/ingest.ts';

const NAME_FIELDS = [
  ['clipName', 'Clip name'],
  ['reelName', 'Reel name'],
  ['diskLabel', 'Disk label'],
] as const;

/** Edits the names of an item in actionRequired or of a schedule (POST /api/ingestQueueItems/{id}). */
export const EditNamesDialog = ({ item, onClose }: { item: IngestQueueItem | null; onClose: () => void }) => (
  <Modal opened={item !== null} onClose={onClose} title="Edit names" centered>
    {item && <EditNamesForm key={item.id} item={item} onClose={onClose} />}
  </Modal>
);

const EditNamesForm = ({ item, onClose }: { item: IngestQueueItem; onClose: () => void }) => {
  const change = useChangeItem();
  const [names, setNames] = useState({
    clipName: item.clipName,
    reelName: item.reelName,
    diskLabel: item.diskLabel,
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await change.mutateAsync({ id: item.id, ...names });
      onClose();
    } catch {
      // The error shows in the form.
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)}>
      <Stack gap="sm">
        {NAME_FIELDS.map(([field, label], index) => (
          <TextInput
            key={field}
            label={label}
            maxLength={200}
            data-autofocus={index === 0 || undefined}
            value={names[field]}
            onChange={(e) => setNames({ ...names, [field]: e.currentTarget.value })}
          />
        ))}
        {change.error && (
          <Alert color="red" role="alert">
            {INGEST_MESSAGES.fetchFailed('saving the names', change.error.message)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={change.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
};

/** The log of an item that failed, is ingesting or was ingested (GET /api/ingestQueueItems/{id}/log). */
export const LogDialog = ({ item, onClose }: { item: IngestQueueItem | null; onClose: () => void }) => {
  const log = useItemLog(item?.id ?? null);
  return (
    <Modal
      opened={item !== null}
      onClose={onClose}
      title={item ? `Log of ${item.clipName || item.sourceName || `item ${item.id}`}` : 'Log'}
      size="xl"
      centered
    >
      {log.isPending && <Loader aria-label="Loading" />}
      {log.isError && (
        <Alert color="red" role="alert">
          {INGEST_MESSAGES.fetchFailed('fetching the log', log.error.message)}
        </Alert>
      )}
      {log.data !== undefined && (
        <ScrollArea.Autosize mah={480}>
          <Code block data-testid="ingest-log">
            {log.data || 'The log is empty.'}
          </Code>
        </ScrollArea.Autosize>
      )}
    </Modal>
  );
};
