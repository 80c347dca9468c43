import { Badge } from '@mantine/core';
import type { IngestStatus } from '@media/contract';

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

export const IngestStatusBadge = ({ status }: { status: IngestStatus }) => (
  <Badge color={COLORS[status]} variant="light" tt="none" data-testid="ingest-status">
    {status}
  </Badge>
);
