import { joinPath, pathSegments } from '@media/contract';
import { ensureAccountRoot, findNodeByPath } from '../modules/nodes/repo.ts';
import { media, nodes, thumbs } from '../modules/nodes/tables.ts';
import type { DbOrTx } from '../platform/db/client.ts';

/**
 * Media tree factories with overrides, shared by integration tests and the demo seed. Paths are inside
 * the account ('/' is its root node, '/News' a folder below it), as the nodes table holds them.
 */
let sequence = 0;
const next = () => {
  sequence += 1;
  return `${Date.now().toString(36)}${sequence}`;
};

/** A media row of an account (a file when storagePath is given, or an edl). */
export const makeMediaRow = async (
  db: DbOrTx,
  overrides: Partial<typeof media.$inferInsert> & { accountId: number },
) => {
  const [row] = await db
    .insert(media)
    .values({ name: `Media ${next()}`, type: 'media', ...overrides })
    .returning();
  if (!row) throw new Error('media not created');
  return row;
};

/** A thumbnail row; storagePath (relative to DATA_DIR) should name a JPEG that is already in place. */
export const makeThumbRow = async (
  db: DbOrTx,
  overrides: Partial<typeof thumbs.$inferInsert> & { accountId: number },
) => {
  const [row] = await db
    .insert(thumbs)
    .values({ storagePath: `thumbs/missing-${next()}.jpg`, ...overrides })
    .returning();
  if (!row) throw new Error('thumb not created');
  return row;
};

/**
 * A node below `parentPath` (default the account's root, made when missing); the parent must exist.
 * Overrides may set anything else (type, mediaId, thumbId, metadata, permissions, createdAt…).
 */
export const makeNodeRow = async (
  db: DbOrTx,
  overrides: Partial<Omit<typeof nodes.$inferInsert, 'path' | 'parentId'>> & {
    accountId: number;
    parentPath?: string;
  },
) => {
  const { parentPath = '/', accountId, ...rest } = overrides;
  const root = await ensureAccountRoot(db, accountId);
  const parent = parentPath === '/' ? root : await findNodeByPath(db, accountId, parentPath);
  if (!parent) throw new Error(`parent node ${parentPath} not found`);
  const name = rest.name ?? `Node ${next()}`;
  const [row] = await db
    .insert(nodes)
    .values({
      type: 'folder',
      ...rest,
      accountId,
      name,
      parentId: parent.id,
      path: joinPath([...pathSegments(parent.path), name]),
    })
    .returning();
  if (!row) throw new Error('node not created');
  return row;
};
