import { Box, Text, Tooltip } from '@mantine/core';
import {
  durationFilter,
  formatFileSize,
  formatTableDate,
  type IngestQueueItem,
  type IngestQueueMode,
  isPlayable,
} from '@media/contract';
import { AutoUpdatingImage } from '../../ui/AutoUpdatingImage.tsx';
import type { DataTableColumn } from '../../ui/data-table/DataTable.tsx';
import { IngestStatusBadge } from '../../ui/IngestStatusBadge.tsx';
import type { QueueActionRules } from './action-rules.ts';
import { ItemActionsMenu } from './ItemActionsMenu.tsx';
import { thumbnailBox } from './queue-address.ts';
import type { useQueueActions } from './useQueueActions.ts';

/** Dates in a smaller type, so a whole 'MMM dd YYYY HH:mm' fits its column. */
const dateCell = (value: string | null) => (
  <Text span size="xs">
    {value ? formatTableDate(new Date(value)) : '—'}
  </Text>
);

/** The thumbnail asks for twice its size, for sharp pictures on dense screens, within the API's limits. */
const thumbnailSrc = (id: number, box: { width: number; height: number }) =>
  `/api/ingestQueueItems/${id}/thumbnail?width=${Math.min(1920, box.width * 2)}&height=${Math.min(1080, box.height * 2)}`;

/** The columns of the queue table, with each row's actions (built afresh: the actions close over the latest state). */
export const useQueueColumns = (props: {
  mode: IngestQueueMode | undefined;
  thumbSize: number;
  actions: ReturnType<typeof useQueueActions>;
  /** The queue's `…/ingestQueueItemActions` answer. */
  rules: QueueActionRules | undefined;
  onEdit: (item: IngestQueueItem) => void;
  onLog: (item: IngestQueueItem) => void;
  onSchedule: (item: IngestQueueItem) => void;
}) => {
  const { mode, thumbSize, actions, rules, onEdit, onLog, onSchedule } = props;
  const box = thumbnailBox(mode, thumbSize);
  const columns: DataTableColumn<IngestQueueItem>[] = [
    {
      id: 'thumbnail',
      header: '',
      width: box.width + 20,
      cell: (item) =>
        isPlayable(item) ? (
          <AutoUpdatingImage
            src={thumbnailSrc(item.id, box)}
            alt={`Thumbnail of ${item.clipName || item.sourceName}`}
            width={box.width}
            height={box.height}
            live={item.status === 'ingesting'}
          />
        ) : (
          <Box
            w={box.width}
            h={box.height}
            aria-hidden
            style={{ borderRadius: 4, border: '1px dashed var(--mantine-color-default-border)' }}
          />
        ),
    },
    {
      id: 'clipName',
      header: 'Clip name',
      sortable: true,
      width: 165,
      cell: (item) =>
        item.clipName ? (
          <span title={item.sourceName}>{item.clipName}</span>
        ) : (
          <Text span c="dimmed" size="sm" title={item.sourceName}>
            {item.sourceName || '—'}
          </Text>
        ),
    },
    {
      id: 'reelName',
      header: 'Reel',
      sortable: true,
      optional: true,
      // Streams make room for their larger thumbnails.
      hidden: mode === 'streams',
      width: 70,
      cell: (i) => i.reelName,
    },
    {
      id: 'diskLabel',
      header: 'Disk label',
      optional: true,
      hidden: true,
      width: 110,
      cell: (i) => i.diskLabel,
    },
    {
      id: 'status',
      header: 'Status',
      sortable: true,
      width: 135,
      cell: (item) => <StatusCell item={item} />,
    },
    {
      id: 'endpoint',
      header: 'Endpoint',
      optional: true,
      width: 120,
      cell: (item) => <span title={item.endpoint?.name}>{item.endpoint?.name ?? '—'}</span>,
    },
    {
      id: 'whenQueued',
      header: 'Queued',
      sortable: true,
      width: 125,
      cell: (item) => dateCell(item.whenQueued),
    },
    {
      id: 'whenStarted',
      header: 'Started',
      sortable: true,
      optional: true,
      hidden: true,
      width: 125,
      cell: (item) => dateCell(item.whenStarted),
    },
    {
      id: 'whenFinished',
      header: 'Finished',
      sortable: true,
      optional: true,
      hidden: true,
      width: 125,
      cell: (item) => dateCell(item.whenFinished),
    },
    {
      id: 'duration',
      header: 'Duration',
      optional: true,
      width: 75,
      cell: (item) => (item.duration == null ? '—' : durationFilter(item.duration)),
    },
    {
      id: 'fileSize',
      header: 'Size',
      optional: true,
      width: 85,
      cell: (item) => (item.fileSize == null ? '—' : formatFileSize(item.fileSize)),
    },
    {
      id: 'error',
      header: 'Error',
      optional: true,
      width: 140,
      cell: (item) =>
        item.error ? (
          <Text span c="red" size="sm" title={item.error}>
            {item.error}
          </Text>
        ) : (
          ''
        ),
    },
    {
      id: 'actions',
      header: '',
      width: 52,
      cell: (item) => (
        <ItemActionsMenu
          item={item}
          actions={actions}
          rules={rules}
          onEdit={() => onEdit(item)}
          onLog={() => onLog(item)}
          onSchedule={() => onSchedule(item)}
        />
      ),
    },
  ];
  return columns;
};

/** The status badge; an error shows on hover too. */
const StatusCell = ({ item }: { item: IngestQueueItem }) => {
  const badge = (
    <IngestStatusBadge
      status={item.status}
      progress={item.progress}
      recording={item.endpoint?.recording === true}
    />
  );
  return item.error ? (
    <Tooltip label={item.error} multiline w={320} openDelay={300}>
      <span>{badge}</span>
    </Tooltip>
  ) : (
    badge
  );
};
