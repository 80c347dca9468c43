import {
  Alert,
  Button,
  Checkbox,
  Group,
  Menu,
  MultiSelect,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  canTrash,
  INGEST_MESSAGES,
  INGEST_SORT_KEYS,
  INGEST_STATUS_WORDS,
  INGEST_STATUSES,
  type IngestQueueItem,
  type IngestQueueMode,
  type IngestStatus,
  PAGE_SIZE_ALL,
  type PageWindow,
} from '@media/contract';
import { useCallback, useMemo, useState } from 'react';
import { type QueueScope, useIngestQueue, useQueueEndpoints } from '../../api/ingest.ts';
import { DataTable, type DataTableSort } from '../../ui/data-table/DataTable.tsx';
import { PlayerHost } from '../player/PlayerHost.tsx';
import { commonStatusChanges } from './action-rules.ts';
import { factsOf } from './ItemActionsMenu.tsx';
import { EditNamesDialog, LogDialog, ScheduleDialog } from './ItemDialogs.tsx';
import { useQueueColumns } from './QueueTable.tsx';
import { filtersValue, kindsOfMode, thumbnailBox } from './queue-address.ts';
import { useQueueActionRules, useQueuePriorityMap } from './queue-queries.ts';
import { edgesEndpointIdsOf } from './queue-request.ts';
import { UnprocessedFilesView } from './UnprocessedFilesView.tsx';
import { useQueueActions } from './useQueueActions.ts';

const SEARCH_DEBOUNCE_MS = 300;
const MAX_PAGE = 1000;

export const MODE_CHOICES = [
  { value: 'all', label: 'All' },
  { value: 'files', label: 'Files' },
  { value: 'streams', label: 'Streams' },
  { value: 'unprocessed', label: 'Unprocessed' },
];

type SortKey = (typeof INGEST_SORT_KEYS)[number];
const isSortKey = (id: string): id is SortKey => (INGEST_SORT_KEYS as readonly string[]).includes(id);

type Props = {
  scope: QueueScope;
  mode: IngestQueueMode | undefined;
  thumbSize: number;
  onModeChange: (mode: IngestQueueMode | undefined) => void;
  /** From the address (an edge queue link's `filter`): the statuses shown at first, and kinds without a mode. */
  initialStatuses?: IngestStatus[];
  initialKinds?: string[];
};

/** An ingest queue: files, streams or both, or the unprocessed files of its endpoints. */
export const IngestQueueView = (props: Props) => (
  <Stack gap="sm">
    <SegmentedControl
      aria-label="Mode"
      w="fit-content"
      data={MODE_CHOICES}
      value={props.mode ?? 'all'}
      onChange={(value) => props.onModeChange(value === 'all' ? undefined : (value as IngestQueueMode))}
    />
    {props.mode === 'unprocessed' ? (
      <QueueUnprocessed scope={props.scope} />
    ) : (
      <QueueItems key={props.mode ?? 'all'} {...props} />
    )}
  </Stack>
);

const QueueUnprocessed = ({ scope }: { scope: QueueScope }) => {
  const endpoints = useQueueEndpoints(scope);
  return (
    <UnprocessedFilesView
      endpoints={endpoints.data?.results}
      endpointsError={endpoints.error ? endpoints.error.message : null}
    />
  );
};

const QueueItems = ({ scope, mode, thumbSize, initialStatuses = [], initialKinds = [] }: Props) => {
  const [statuses, setStatuses] = useState<string[]>(initialStatuses);
  const [search, setSearch] = useState('');
  const [extendedSearch, setExtendedSearch] = useState(false);
  const [folderPriorityFirst, setFolderPriorityFirst] = useState(false);
  const [searchText] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [sort, setSort] = useState<DataTableSort>(undefined);
  const [window, setWindow] = useState<PageWindow>({ startIndex: 0, pageSize: 50 });
  const [selected, setSelected] = useState<string[]>([]);
  const [endpointIds, setEndpointIds] = useState<string[]>([]);
  const [editing, setEditing] = useState<IngestQueueItem | null>(null);
  const [logOf, setLogOf] = useState<IngestQueueItem | null>(null);
  const [scheduling, setScheduling] = useState<IngestQueueItem | null>(null);

  const filters = filtersValue(statuses, kindsOfMode(mode, initialKinds));
  const endpoints = useQueueEndpoints(scope);
  const rules = useQueueActionRules(scope).data;
  // On request, an account's own order (rank) puts the items of higher-priority arrivals folders first.
  const byRank = !sort || sort.id === 'rank';
  const priorityMap = useQueuePriorityMap(scope, endpoints.data?.results);
  const queue = useIngestQueue(scope, {
    offset: window.startIndex,
    pageSize: window.pageSize === PAGE_SIZE_ALL ? MAX_PAGE : window.pageSize,
    sortKey: sort && isSortKey(sort.id) ? sort.id : 'rank',
    sortDirection: sort?.desc ? -1 : 1,
    filters,
    search: searchText || undefined,
    extendedSearch: extendedSearch ? '1' : '0',
    priorityMap: byRank && folderPriorityFirst ? priorityMap : undefined,
    edgesEndpointIds: edgesEndpointIdsOf(endpointIds),
  });
  const actions = useQueueActions(scope);
  const onEdit = useCallback((item: IngestQueueItem) => setEditing(item), []);
  const onLog = useCallback((item: IngestQueueItem) => setLogOf(item), []);
  const onSchedule = useCallback((item: IngestQueueItem) => setScheduling(item), []);
  const columns = useQueueColumns({ mode, thumbSize, actions, rules, onEdit, onLog, onSchedule });

  // A new filter, search or page starts without a selection.
  const restart = () => {
    setSelected([]);
    setWindow((current) => ({ ...current, startIndex: 0 }));
  };

  const rows = queue.data?.results ?? [];
  const selectedItems = useMemo(
    () => rows.filter((item) => selected.includes(String(item.id))),
    [rows, selected],
  );
  const bulkStatuses = commonStatusChanges(rules, selectedItems, factsOf);
  const bulkTrashable =
    selectedItems.length > 0 &&
    selectedItems.every((item) => canTrash(factsOf(item)) && item.endpointId !== null);
  const box = thumbnailBox(mode, thumbSize);
  const loadError = queue.error
    ? INGEST_MESSAGES.fetchFailed(INGEST_MESSAGES.defaultActivity, queue.error.message)
    : null;

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <Group gap="sm" align="flex-end">
          <MultiSelect
            label="Status filter"
            placeholder={statuses.length === 0 ? 'Every status' : undefined}
            data={INGEST_STATUSES.map((status) => ({ value: status, label: INGEST_STATUS_WORDS[status] }))}
            value={statuses}
            clearable
            clearButtonProps={{ 'aria-label': 'Clear status filter', 'aria-hidden': false, tabIndex: 0 }}
            w={300}
            onChange={(next) => {
              setStatuses(next);
              restart();
            }}
          />
          {scope.kind !== 'endpoint' && (
            <MultiSelect
              label="Endpoints"
              placeholder={endpointIds.length === 0 ? 'Every endpoint' : undefined}
              data={(endpoints.data?.results ?? []).map((e) => ({ value: String(e.id), label: e.name }))}
              value={endpointIds}
              clearable
              searchable
              w={240}
              onChange={(next) => {
                setEndpointIds(next);
                restart();
              }}
            />
          )}
          <TextInput
            label="Search"
            placeholder="Clip, reel or file name"
            w={220}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              restart();
            }}
          />
          <Checkbox
            mb={8}
            label="Extended search"
            checked={extendedSearch}
            onChange={(e) => {
              setExtendedSearch(e.currentTarget.checked);
              restart();
            }}
          />
          {priorityMap && (
            <Checkbox
              mb={8}
              label="Folder priority first"
              checked={folderPriorityFirst}
              disabled={!byRank}
              onChange={(e) => {
                setFolderPriorityFirst(e.currentTarget.checked);
                restart();
              }}
            />
          )}
        </Group>
        <Group gap="xs" align="center">
          {selectedItems.length > 0 && (
            <Text size="sm" data-testid="selected-count">
              {selectedItems.length} selected
            </Text>
          )}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button size="xs" variant="default" disabled={bulkStatuses.length === 0 || actions.busy}>
                Set status of selected
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {bulkStatuses.map((to) => (
                <Menu.Item
                  key={to}
                  onClick={() =>
                    void actions.setStatuses(selectedItems, to).then((done) => done && setSelected([]))
                  }
                >
                  {`Set to ${INGEST_STATUS_WORDS[to]}`}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          <Button
            size="xs"
            color="red"
            variant="light"
            disabled={!bulkTrashable || actions.busy}
            onClick={() => void actions.trashItems(selectedItems).then((done) => done && setSelected([]))}
          >
            Delete selected
          </Button>
        </Group>
      </Group>
      {loadError && (
        <Alert color="red" role="alert">
          {loadError}
        </Alert>
      )}
      {!loadError && (
        <DataTable
          entities="queue items"
          rows={rows}
          total={queue.data?.total ?? 0}
          getRowId={(item) => String(item.id)}
          columns={columns}
          loading={queue.isPending || (queue.isPlaceholderData && queue.isFetching)}
          emptyText={
            filters || searchText ? 'No queue items match the filter' : 'There are no items in this queue'
          }
          sort={sort}
          onSortChange={(next) => {
            setSort(next);
            restart();
          }}
          selectedIds={selected}
          onSelectionChange={setSelected}
          dragSelect
          window={window}
          onWindowChange={(next) => {
            setWindow(next);
            setSelected([]);
          }}
          rowHeight={Math.max(36, box.height + 10)}
        />
      )}
      <EditNamesDialog item={editing} onClose={() => setEditing(null)} />
      <LogDialog item={logOf} onClose={() => setLogOf(null)} />
      {/* Monitor opens a recording stream in the floating player. */}
      <PlayerHost />
      <ScheduleDialog item={scheduling} onClose={() => setScheduling(null)} />
    </Stack>
  );
};
