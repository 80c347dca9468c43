import {
  INGEST_MESSAGES,
  type IngestQueueItem,
  type IngestStatus,
  type ManualStatusChange,
} from '@media/contract';
import {
  type QueueScope,
  useChangeItem,
  useChangeStatuses,
  useSendToTop,
  useTrashItem,
  useTrashItems,
} from '../../api/ingest.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const failed = (activity: string, error: unknown) =>
  showAlert({
    type: 'danger',
    text: INGEST_MESSAGES.fetchFailed(activity, errorText(error)),
    source: 'ingest',
  });

export const itemLabel = (item: IngestQueueItem) => item.clipName || item.sourceName || `item ${item.id}`;

/** The queue's actions, each with the alerts of spec2 §8. */
export const useQueueActions = (scope: QueueScope) => {
  const change = useChangeItem();
  const changeStatuses = useChangeStatuses();
  const rank = useSendToTop(scope);
  const trashOne = useTrashItem();
  const trashMany = useTrashItems();

  const setStatus = async (item: IngestQueueItem, status: ManualStatusChange) => {
    try {
      await change.mutateAsync({ id: item.id, status });
    } catch (error) {
      failed('changing the status', error);
    }
  };

  const setStatuses = async (items: IngestQueueItem[], status: IngestStatus) => {
    try {
      await changeStatuses.mutateAsync(items.map((item) => ({ id: item.id, status })));
      return true;
    } catch (error) {
      failed('changing the status', error);
      return false;
    }
  };

  const sendToTop = async (item: IngestQueueItem) => {
    try {
      await rank.mutateAsync(item);
    } catch (error) {
      failed('sending the item to the top', error);
    }
  };

  const startStream = async (item: IngestQueueItem) => {
    try {
      await change.mutateAsync({ id: item.id, action: 'start' });
    } catch (error) {
      showAlert({ type: 'danger', text: INGEST_MESSAGES.startFailed(errorText(error)), source: 'ingest' });
    }
  };

  const stopStream = async (item: IngestQueueItem) => {
    try {
      await change.mutateAsync({ id: item.id, action: 'stop' });
    } catch (error) {
      showAlert({ type: 'danger', text: INGEST_MESSAGES.stopFailed(errorText(error)), source: 'ingest' });
    }
  };

  const abort = async (item: IngestQueueItem) => {
    const confirmed = await confirmDialog({
      title: 'Abort ingest',
      message: `Stop ingesting "${itemLabel(item)}"?`,
      confirmLabel: 'Abort',
      danger: true,
    });
    if (confirmed) await setStatus(item, 'abort');
  };

  const trash = async (item: IngestQueueItem) => {
    const confirmed = await confirmDialog({
      title: 'Delete queue item',
      message: `Delete "${itemLabel(item)}" from the ingest queue?`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await trashOne.mutateAsync(item.id);
      showAlert({ type: 'success', text: INGEST_MESSAGES.deleted(item.id), source: 'ingest' });
    } catch (error) {
      failed('deleting the item', error);
    }
  };

  /** One call for all of them; the server deletes all or none. */
  const trashItems = async (items: IngestQueueItem[]) => {
    const confirmed = await confirmDialog({
      title: 'Delete queue items',
      message: `Delete ${items.length} item${items.length === 1 ? '' : 's'} from the ingest queue?`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return false;
    try {
      await trashMany.mutateAsync(items);
      for (const item of items)
        showAlert({ type: 'success', text: INGEST_MESSAGES.deleted(item.id), source: 'ingest' });
      return true;
    } catch (error) {
      failed('deleting the items', error);
      return false;
    }
  };

  const busy =
    change.isPending ||
    changeStatuses.isPending ||
    rank.isPending ||
    trashOne.isPending ||
    trashMany.isPending;
  return { setStatus, setStatuses, sendToTop, startStream, stopStream, abort, trash, trashItems, busy };
};
