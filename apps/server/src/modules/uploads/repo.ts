import type { UploadKind } from '@media/contract';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { pageTotal } from '../../platform/db/paging.ts';
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
    .where(eq(uploads.id, id));
  return row;
};

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
