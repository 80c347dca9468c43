import { Badge, Progress, Stack } from '@mantine/core';
import { INGEST_STATUS_WORDS, type IngestStatus } from '@media/contract';

const COLORS: Record<IngestStatus, string> = {
  queued: 'blue',
  actionRequired: 'orange',
  duplicated: 'grape',
  failed: 'red',
  ingested: 'teal',
  ingesting: 'cyan',
  missing: 'yellow',
  deleted: 'gray',
  unknown: 'gray',
};

/**
 * The status; an item being ingested shows how far it is ('ingesting 42%'), with a bar under the word, and a
 * stream being recorded says so (its seconds and bytes show in their columns).
 */
export const IngestStatusBadge = ({
  status,
  progress,
  recording = false,
}: {
  status: IngestStatus;
  progress?: number | null;
  recording?: boolean;
}) =>
  status === 'ingesting' && recording ? (
    <Badge
      color="red"
      variant="light"
      tt="none"
      data-testid="ingest-status"
      title="ingesting: the stream is being recorded"
      leftSection={<span aria-hidden>●</span>}
    >
      recording
    </Badge>
  ) : status === 'ingesting' && progress != null ? (
    <Stack gap={2} w={110} data-testid="ingest-status" aria-label={`ingesting, ${progress}% done`}>
      <Badge color={COLORS[status]} variant="light" tt="none">
        {`ingesting ${progress}%`}
      </Badge>
      <Progress value={progress} size="xs" color={COLORS[status]} animated aria-hidden />
    </Stack>
  ) : (
    <Badge color={COLORS[status]} variant="light" tt="none" data-testid="ingest-status">
      {INGEST_STATUS_WORDS[status]}
    </Badge>
  );
