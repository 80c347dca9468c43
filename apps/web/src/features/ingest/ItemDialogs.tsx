import {
  Alert,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  NumberInput,
  ScrollArea,
  Stack,
  TextInput,
} from '@mantine/core';
import { INGEST_MESSAGES, type IngestQueueItem } from '@media/contract';
import { type FormEvent, useState } from 'react';
import { useChangeItem, useItemLog } from '../../api/ingest.ts';
import { DatePickerInput, TimePickerInput } from '../../ui/DateTimeInputs.tsx';

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
    <form noValidate onSubmit={(e) => void submit(e)}>
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

const pad2 = (n: number) => String(n).padStart(2, '0');
const nextHour = () => new Date(Math.ceil((Date.now() + 60_000) / 3_600_000) * 3_600_000);

/**
 * Schedules a recording (action reschedule): from a stream in actionRequired a new schedule is made; a
 * schedule itself moves. Start as a local date and time, duration in minutes.
 */
export const ScheduleDialog = ({ item, onClose }: { item: IngestQueueItem | null; onClose: () => void }) => (
  <Modal opened={item !== null} onClose={onClose} title="Schedule recording" centered>
    {item && <ScheduleForm key={item.id} item={item} onClose={onClose} />}
  </Modal>
);

const ScheduleForm = ({ item, onClose }: { item: IngestQueueItem; onClose: () => void }) => {
  const change = useChangeItem();
  const first = item.scheduledStartTime ? new Date(item.scheduledStartTime) : nextHour();
  const [date, setDate] = useState<string | null>(
    `${first.getFullYear()}-${pad2(first.getMonth() + 1)}-${pad2(first.getDate())}`,
  );
  const [time, setTime] = useState(`${pad2(first.getHours())}:${pad2(first.getMinutes())}`);
  const [minutes, setMinutes] = useState<number | string>(
    item.duration ? Math.max(1, Math.round(item.duration / 60)) : 30,
  );
  const [clipName, setClipName] = useState(item.isSchedule ? item.clipName : '');
  const start = date && time ? new Date(`${date}T${time.length === 5 ? `${time}:00` : time}`) : null;
  const valid = start !== null && !Number.isNaN(start.getTime()) && Number(minutes) > 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || !start) return;
    try {
      await change.mutateAsync({
        id: item.id,
        action: 'reschedule',
        startTime: start.toISOString(),
        duration: Number(minutes) * 60,
        ...(clipName.trim() ? { clipName: clipName.trim() } : {}),
      });
      onClose();
    } catch {
      // The error shows in the form.
    }
  };
  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <Stack gap="sm">
        <Group grow align="flex-start">
          <DatePickerInput label="Start date" required clearable={false} value={date} onChange={setDate} />
          <TimePickerInput label="Start time" required value={time} onChange={setTime} />
        </Group>
        <NumberInput
          label="Duration (minutes)"
          required
          min={1}
          max={7 * 24 * 60}
          allowDecimal={false}
          value={minutes}
          onChange={setMinutes}
        />
        <TextInput
          label="Clip name"
          placeholder={item.clipName}
          maxLength={200}
          value={clipName}
          onChange={(e) => setClipName(e.currentTarget.value)}
        />
        {change.error && (
          <Alert color="red" role="alert">
            {INGEST_MESSAGES.fetchFailed('scheduling the recording', change.error.message)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!valid} loading={change.isPending}>
            Schedule
          </Button>
        </Group>
      </Stack>
    </form>
  );
};
