import {
  accountPath,
  artefactMetadata,
  displayName,
  displayTypeOf,
  editorNodeId,
  type MediaNode,
  type NodeRights,
  nodeLevel,
  parentPathOf,
} from '@media/contract';
import { rightsAt, type TreeAccess } from './access.ts';
import type { PresentableRow } from './repo.ts';

/**
 * The one shape of a node in every answer (contract nodeSchema), as the caller may use it; `searchKey` when
 * the node is a search result.
 */
export const presentNode = (
  row: PresentableRow,
  access: TreeAccess,
  rights?: NodeRights,
  searchKey: string | null = null,
): MediaNode => {
  const path = accountPath(access.account.name, row.path);
  const { canEdit, canLog, canManage } = rights ?? rightsAt(access, row.path);
  const name = displayName(row.path === '/' ? access.account.name : row.name);
  return {
    id: editorNodeId(row.accountId, row.id, row.type, row.mediaId),
    nodeId: row.id,
    path,
    name,
    accountId: row.accountId,
    mediaId: row.mediaId,
    type: row.type,
    displayType: displayTypeOf(row.type),
    parentPath: parentPathOf(path),
    parentId: row.parentId,
    level: nodeLevel(path),
    expandable: row.type === 'folder' && row.childCount > 0,
    childCount: row.childCount,
    createdTime: row.createdAt.toISOString(),
    createdTimeStamp: row.createdAt.getTime(),
    hereTime: row.hereAt.toISOString(),
    expiresTime: row.expiresAt?.toISOString() ?? null,
    thumbId: row.thumbId,
    duration: row.duration,
    metadata: row.metadata,
    artefacts: row.artefacts,
    artefactMetadata: artefactMetadata(row.artefacts),
    permissions: row.permissions,
    sortKey: name.toLowerCase(),
    searchKey,
    access: { canEdit, canLog, canManage },
  };
};
