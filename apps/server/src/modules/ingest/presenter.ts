import type { EndpointStatus, IngestQueueItem, IngestStatus } from '@media/contract';
import { canControl, endpointCategory } from '@media/contract';
import type { DbOrTx } from '../../platform/db/client.ts';
import * as repo from './repo.ts';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The one mapper of a queue item row to the contract's shape. */
const toItem = (
  row: repo.ItemRow,
  groups: Map<number, { id: number; edgeId: number }[]>,
): IngestQueueItem => ({
  id: row.id,
  status: row.status as IngestStatus,
  isStream: row.isStream,
  isSchedule: row.isSchedule,
  endpointId: row.endpointId,
  endpoint:
    row.endpointId != null && row.endpointName != null
      ? {
          id: row.endpointId,
          name: row.endpointName,
          serviceId: row.endpointServiceId as number,
          category: endpointCategory(row.endpointTypeId ?? ''),
          status: row.endpointStatus as EndpointStatus,
          controllable: canControl(row.endpointOptions ?? {}),
          recording: row.endpointRecording ?? false,
        }
      : null,
  // Live only while it records: once the recording lands, the node plays it as a file.
  liveNode:
    row.status === 'ingesting' &&
    row.liveMediaType === 'lifestream' &&
    row.liveNodeId != null &&
    row.liveNodePath != null &&
    row.liveMediaId != null &&
    row.liveAccountName != null
      ? {
          id: row.liveNodeId,
          mediaId: row.liveMediaId,
          path: row.liveNodePath,
          accountName: row.liveAccountName,
        }
      : null,
  edgeServerId: row.edgeServerId,
  serviceGroupId: row.serviceGroupId,
  serviceGroupServices: row.serviceGroupId != null ? (groups.get(row.serviceGroupId) ?? []) : [],
  accountId: row.accountId,
  arrivalsFolderId: row.arrivalsFolderId,
  queueId: row.queueId,
  reelName: row.reelName,
  diskLabel: row.diskLabel,
  clipName: row.clipName,
  scheduledStartTime: iso(row.scheduledStartTime),
  priority: row.priority,
  rank: row.rank,
  whenQueued: row.whenQueued.toISOString(),
  whenStarted: iso(row.whenStarted),
  whenFinished: iso(row.whenFinished),
  duration: row.duration,
  fileSize: row.fileSize,
  proxyWidth: row.proxyWidth,
  proxyHeight: row.proxyHeight,
  progress: row.status === 'ingesting' ? row.progress : null,
  error: row.error,
  forced: row.forced,
  sourceName: row.sourceName,
});

export const toItems = async (db: DbOrTx, rows: repo.ItemRow[]) => {
  const groupIds = [
    ...new Set(rows.map((row) => row.serviceGroupId).filter((id): id is number => id != null)),
  ];
  const groups = await repo.findGroupServices(db, groupIds);
  return rows.map((row) => toItem(row, groups));
};
