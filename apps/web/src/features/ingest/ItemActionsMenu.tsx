import { ActionIcon, Menu } from '@mantine/core';
import {
  canAbort,
  canEdit,
  canSchedule,
  canSendToTop,
  canStartStream,
  canStopStream,
  canTrash,
  folderApiPathOf,
  hasLog,
  INGEST_STATUS_WORDS,
  type IngestQueueItem,
  type IngestStatus,
  monitoredNode,
  type QueueItemFacts,
} from '@media/contract';
import { openPlayer } from '../player/player-store.ts';
import { allowsAction, type QueueActionRules, statusChangesOf } from './action-rules.ts';
import type { useQueueActions } from './useQueueActions.ts';

export const factsOf = (item: IngestQueueItem): QueueItemFacts => ({
  status: item.status,
  isStream: item.isStream,
  isSchedule: item.isSchedule,
  endpointStatus: item.endpoint?.status ?? null,
});

/**
 * The actions one item allows: the status changes and actions the queue's `…/ingestQueueItemActions` answer
 * lists (fetched once and cached), each where the item's state allows it (spec2 §4).
 */
export const ItemActionsMenu = ({
  item,
  actions,
  rules,
  onEdit,
  onLog,
  onSchedule,
}: {
  item: IngestQueueItem;
  actions: ReturnType<typeof useQueueActions>;
  rules: QueueActionRules | undefined;
  onEdit: () => void;
  onLog: () => void;
  onSchedule: () => void;
}) => {
  const facts = factsOf(item);
  const changes = statusChangesOf(rules, facts);
  const statuses = changes.filter((to): to is IngestStatus => to !== 'abort');
  const entries = {
    sendToTop: canSendToTop(facts),
    start: allowsAction(rules, 'start') && canStartStream(facts) && item.endpoint?.controllable !== false,
    stop: allowsAction(rules, 'stop') && canStopStream(facts) && item.endpoint?.controllable !== false,
    abort: allowsAction(rules, 'abort') && changes.includes('abort') && canAbort(facts),
    edit: canEdit(facts),
    schedule: allowsAction(rules, 'reschedule') && canSchedule(facts),
    log: hasLog(facts),
    trash: canTrash(facts),
  };
  const liveNode = monitoredNode(item);
  const anything = statuses.length > 0 || liveNode !== null || Object.values(entries).some(Boolean);
  const monitor = () => {
    if (!liveNode || item.accountId === null) return;
    openPlayer({
      mediaId: liveNode.mediaId,
      name: item.clipName || item.sourceName,
      path: folderApiPathOf(liveNode.accountName, liveNode.path),
      accountId: item.accountId,
      accountName: liveNode.accountName,
    });
  };
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          aria-label={`Actions for item ${item.id}`}
          disabled={!anything}
          data-testid="item-actions"
        >
          ⋯
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {statuses.length > 0 && <Menu.Label>Change status</Menu.Label>}
        {statuses.map((to) => (
          <Menu.Item key={to} onClick={() => void actions.setStatus(item, to)}>
            {`Set to ${INGEST_STATUS_WORDS[to]}`}
          </Menu.Item>
        ))}
        {liveNode && <Menu.Item onClick={monitor}>Monitor</Menu.Item>}
        {entries.sendToTop && <Menu.Item onClick={() => void actions.sendToTop(item)}>Send to top</Menu.Item>}
        {entries.start && <Menu.Item onClick={() => void actions.startStream(item)}>Start stream</Menu.Item>}
        {entries.stop && <Menu.Item onClick={() => void actions.stopStream(item)}>Stop stream</Menu.Item>}
        {entries.abort && (
          <Menu.Item color="red" onClick={() => void actions.abort(item)}>
            Abort
          </Menu.Item>
        )}
        {entries.edit && <Menu.Item onClick={onEdit}>Edit names</Menu.Item>}
        {entries.schedule && (
          <Menu.Item onClick={onSchedule}>{item.isSchedule ? 'Reschedule' : 'Schedule recording'}</Menu.Item>
        )}
        {entries.log && <Menu.Item onClick={onLog}>View log</Menu.Item>}
        {entries.trash && (
          <>
            <Menu.Divider />
            <Menu.Item color="red" onClick={() => void actions.trash(item)}>
              Delete
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
};
