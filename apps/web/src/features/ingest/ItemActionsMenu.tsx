import { ActionIcon, Menu } from '@mantine/core';
import {
  canAbort,
  canEdit,
  canSchedule,
  canSendToTop,
  canStartStream,
  canStopStream,
  canTrash,
  hasLog,
  type IngestQueueItem,
  manualStatusChanges,
  type QueueItemFacts,
} from '@media/contract';
import type { useQueueActions } from './useQueueActions.ts';

export const factsOf = (item: IngestQueueItem): QueueItemFacts => ({
  status: item.status,
  isStream: item.isStream,
  isSchedule: item.isSchedule,
  endpointStatus: item.endpoint?.status ?? null,
});

/** The actions one item allows, strictly by the rules of spec2 §4. */
export const ItemActionsMenu = ({
  item,
  actions,
  onEdit,
  onLog,
  onSchedule,
}: {
  item: IngestQueueItem;
  actions: ReturnType<typeof useQueueActions>;
  onEdit: () => void;
  onLog: () => void;
  onSchedule: () => void;
}) => {
  const facts = factsOf(item);
  const statuses = manualStatusChanges(facts).filter((to) => to !== 'abort');
  const entries = {
    sendToTop: canSendToTop(facts),
    start: canStartStream(facts),
    stop: canStopStream(facts),
    abort: canAbort(facts),
    edit: canEdit(facts),
    schedule: canSchedule(facts),
    log: hasLog(facts),
    trash: canTrash(facts),
  };
  const anything = statuses.length > 0 || Object.values(entries).some(Boolean);
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
            {`Set to ${to}`}
          </Menu.Item>
        ))}
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
