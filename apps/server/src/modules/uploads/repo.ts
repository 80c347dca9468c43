import type { UploadKind } from '@media/contract';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { pageTotal } from '../../platform/db/paging.ts';
import { ingestFormats } from '../config/tables.ts';
import { nodes } from '../nodes/tables.ts';
import { accounts } from '../organisation/tables.ts';
import { users } from '../users/tables.ts';
import { uploads } from './tables.ts';

const uploadColumns = {
  id: uploads.id,
  accountId: uploads.accountId,
  kind: uploads.kind,
  name: uploads.name,
  fileName: uploads.fileName,
  location: uploads.location,
  format: uploads.format,
  aspect: uploads.aspect,
  size: uploads.size,
  uploadedBy: users.username,
  createdAt: uploads.createdAt,
  status: uploads.status,
  error: uploads.error,
  progress: uploads.progress,
  nodeId: uploads.nodeId,
  nodePath: nodes.path,
  mediaId: nodes.mediaId,
};

export const insertUpload = async (db: DbOrTx, values: typeof uploads.$inferInsert) => {
  const [row] = await db.insert(uploads).values(values).returning({ id: uploads.id });
  return (row as { id: number }).id;
};

export const findUpload = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select(uploadColumns)
    .from(uploads)
    .leftJoin(users, eq(users.id, uploads.userId))
    .leftJoin(nodes, eq(nodes.id, uploads.nodeId))
    .where(eq(uploads.id, id));
  return row;
};

/** Where an upload's file is stored, and what to call it when downloaded. */
export const findUploadFile = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({
      accountId: uploads.accountId,
      kind: uploads.kind,
      fileName: uploads.fileName,
      contentType: uploads.contentType,
      storagePath: uploads.storagePath,
    })
    .from(uploads)
    .where(eq(uploads.id, id));
  return row;
};

/** What the proxy job needs of an upload: its file, choices, node and the account's formats. */
export const findUploadWork = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({
      id: uploads.id,
      accountId: uploads.accountId,
      fileName: uploads.fileName,
      storagePath: uploads.storagePath,
      format: uploads.format,
      aspect: uploads.aspect,
      status: uploads.status,
      nodeId: uploads.nodeId,
      mediaId: nodes.mediaId,
      maxVideo: accounts.maxVideo,
    })
    .from(uploads)
    .innerJoin(accounts, eq(accounts.id, uploads.accountId))
    .leftJoin(nodes, eq(nodes.id, uploads.nodeId))
    .where(eq(uploads.id, id));
  if (!row) return undefined;
  const formats = await db
    .select({ format: ingestFormats.format })
    .from(ingestFormats)
    .where(eq(ingestFormats.accountId, row.accountId))
    .orderBy(asc(ingestFormats.position));
  return { ...row, accountFormats: formats.map((f) => f.format) };
};

export const setUploadState = (
  db: DbOrTx,
  id: number,
  state: Partial<Pick<typeof uploads.$inferInsert, 'status' | 'error' | 'progress' | 'nodeId'>>,
) => db.update(uploads).set(state).where(eq(uploads.id, id));

/** Newest first. */
export const findUploadsPage = async (
  db: DbOrTx,
  options: { accountId: number; kinds: readonly UploadKind[]; offset: number; limit: number },
) => {
  const where = and(eq(uploads.accountId, options.accountId), inArray(uploads.kind, [...options.kinds]));
  const rows = await db
    .select(uploadColumns)
    .from(uploads)
    .leftJoin(users, eq(users.id, uploads.userId))
    .leftJoin(nodes, eq(nodes.id, uploads.nodeId))
    .where(where)
    .orderBy(desc(uploads.createdAt), desc(uploads.id))
    .offset(options.offset)
    .limit(options.limit);
  const total = await pageTotal(
    { rows: rows.length, offset: options.offset, limit: options.limit },
    async () => {
      const [all] = await db.select({ n: count() }).from(uploads).where(where);
      return all?.n ?? 0;
    },
  );
  return { rows, total };
};
