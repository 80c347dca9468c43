import { ActionIcon, Badge, Group, Progress, Table, Text, TextInput } from '@mantine/core';
import {
  CHANNELS,
  formatFileSize,
  formatTableDate,
  PAGE_SIZES,
  type PageWindow,
  type Upload,
  type UploadFileStatus,
  type UploadKind,
} from '@media/contract';
import { useState } from 'react';
import { useLiveRefresh } from '../../api/live.ts';
import { uploadsKey, useUploads } from '../../api/uploads.ts';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';
import { UploadOutcome } from './UploadOutcome.tsx';
import type { QueuedFile } from './useUploadQueue.ts';

const STATUS_COLOURS: Record<UploadFileStatus, string> = {
  choosing: 'gray',
  preparing: 'blue',
  uploading: 'blue',
  complete: 'green',
  error: 'red',
  unknown: 'yellow',
};

/** The chosen files: their upload names (editable while choosing), sizes, statuses and progress. */
export const ChosenFiles = (props: {
  files: QueuedFile[];
  editable: boolean;
  onRename: (key: number, name: string) => void;
  onRemove: (key: number) => void;
}) => (
  <Table verticalSpacing={4} aria-label="Chosen files">
    <Table.Thead>
      <Table.Tr>
        <Table.Th>Name</Table.Th>
        <Table.Th>File</Table.Th>
        <Table.Th w={100}>Size</Table.Th>
        <Table.Th w={220}>Status</Table.Th>
        {props.editable && <Table.Th w={40} aria-label="Remove" />}
      </Table.Tr>
    </Table.Thead>
    <Table.Tbody>
      {props.files.map((queued) => (
        <Table.Tr key={queued.key} data-status={queued.status}>
          <Table.Td>
            <TextInput
              size="xs"
              aria-label={`Name of ${queued.file.name}`}
              value={queued.name}
              disabled={!props.editable}
              error={queued.name.trim() ? undefined : 'This field is required'}
              onChange={(event) => props.onRename(queued.key, event.currentTarget.value)}
            />
          </Table.Td>
          <Table.Td>
            <Text size="sm">{queued.file.name}</Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{formatFileSize(queued.file.size)}</Text>
          </Table.Td>
          <Table.Td>
            <Group gap="xs" wrap="nowrap">
              {/* The word is never cut ('UPLOADI…'): the bar takes the room left. */}
              <Badge
                color={STATUS_COLOURS[queued.status]}
                variant="light"
                data-testid="upload-status"
                style={{ flex: 'none' }}
              >
                {queued.status}
              </Badge>
              {queued.status === 'uploading' && (
                <Progress
                  value={queued.progress * 100}
                  style={{ flex: 1, minWidth: 40 }}
                  aria-label={`Progress of ${queued.file.name}`}
                />
              )}
            </Group>
            {queued.error && (
              <Text size="xs" c="red" role="alert">
                {queued.error}
              </Text>
            )}
          </Table.Td>
          {props.editable && (
            <Table.Td>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove ${queued.file.name}`}
                onClick={() => props.onRemove(queued.key)}
              >
                ×
              </ActionIcon>
            </Table.Td>
          )}
        </Table.Tr>
      ))}
    </Table.Tbody>
  </Table>
);

const columns = (accountName: string): DataTableColumn<Upload>[] => [
  { id: 'name', header: 'Name', cell: (u) => u.name },
  { id: 'fileName', header: 'File', cell: (u) => u.fileName },
  { id: 'size', header: 'Size', cell: (u) => formatFileSize(u.size), width: 90 },
  { id: 'location', header: 'Location', cell: (u) => u.location || '—', optional: true, width: 140 },
  { id: 'format', header: 'Format', cell: (u) => u.format ?? '—', optional: true, hidden: true },
  { id: 'uploadedBy', header: 'Uploaded by', cell: (u) => u.uploadedBy ?? '—', optional: true, width: 130 },
  { id: 'createdAt', header: 'Uploaded', cell: (u) => formatTableDate(new Date(u.createdAt)), width: 160 },
  {
    id: 'status',
    header: 'Status',
    cell: (u) => <UploadOutcome upload={u} accountName={accountName} />,
    width: 300,
  },
];

/** The account's earlier uploads of a kind, newest first, paged on the server and kept live. */
export const RecentUploads = ({
  accountId,
  accountName,
  kind,
}: {
  accountId: number;
  accountName: string;
  kind?: UploadKind;
}) => {
  const [window, setWindow] = useState<PageWindow>({ startIndex: 0, pageSize: PAGE_SIZES[1] });
  const uploads = useUploads(accountId, kind, {
    offset: window.startIndex,
    limit: window.pageSize || 10_000,
  });
  useLiveRefresh(CHANNELS.uploads(accountId), uploadsKey(accountId, kind));
  return (
    <DataTable
      entities="uploads"
      rows={uploads.data?.results ?? []}
      total={uploads.data?.total ?? 0}
      getRowId={(u) => String(u.id)}
      columns={columns(accountName).filter(
        (c) => kind !== 'metadataMapping' || !['location', 'format'].includes(c.id),
      )}
      loading={uploads.isFetching}
      error={uploads.error?.message}
      emptyText="Nothing has been uploaded yet"
      window={window}
      onWindowChange={setWindow}
      height={360}
    />
  );
};
