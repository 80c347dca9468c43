import { and, asc, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { atLeastShown, countUpTo } from '../../platform/db/paging.ts';
import { accounts } from '../organisation/tables.ts';
import { media, nodes, thumbs } from './tables.ts';

export type NodeRow = typeof nodes.$inferSelect;

/** The account's root node ('/', a folder named after the account), made on first use. */
export const ensureAccountRoot = async (db: DbOrTx, accountId: number): Promise<NodeRow> => {
  const existing = await findNodeByPath(db, accountId, '/');
  if (existing) return existing;
  const [account] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new Error(`account ${accountId} not found`);
  // Two first requests may race; the unique path index lets one insert win.
  await db
    .insert(nodes)
    .values({ accountId, path: '/', name: account.name, type: 'folder' })
    .onConflictDoNothing({ target: [nodes.accountId, nodes.path] });
  const root = await findNodeByPath(db, accountId, '/');
  if (!root) throw new Error('root node not created');
  return root;
};

/** The node at an inner path of an account. */
export const findNodeByPath = async (db: DbOrTx, accountId: number, path: string) => {
  const [row] = await db
    .select()
    .from(nodes)
    .where(and(eq(nodes.accountId, accountId), eq(nodes.path, path)));
  return row;
};

/**
 * A node with what the presenter needs besides its own columns; children hidden from the caller (their
 * inner paths in `hidden`) are not counted, so an empty-looking folder gives nothing away.
 */
const presentable = (hidden: readonly string[]) => ({
  ...getTableColumns(nodes),
  // The count the database keeps, less the hidden children (few paths, found through the path index).
  childCount: hidden.length
    ? sql<number>`(${nodes.childCount} - (select count(*) from "nodes" as "child" where "child"."parent_id" = ${nodes.id} and "child"."account_id" = ${nodes.accountId} and "child"."path" in (${sql.join(
        hidden.map((path) => sql`${path}`),
        sql`, `,
      )})))::int`
    : nodes.childCount,
  duration: media.duration,
});
export type PresentableRow = NodeRow & { duration: number | null };

export const findPresentable = (db: DbOrTx, where: SQL | undefined, hidden: readonly string[] = []) =>
  db.select(presentable(hidden)).from(nodes).leftJoin(media, eq(media.id, nodes.mediaId)).where(where);

/** The nodes at these inner paths of an account, the root first. */
export const findChain = async (db: DbOrTx, accountId: number, paths: string[], hidden: readonly string[]) =>
  (await findPresentable(db, and(eq(nodes.accountId, accountId), inArray(nodes.path, paths)), hidden)).sort(
    (a, b) => a.path.length - b.path.length,
  );

export const TIME_ORDER = [desc(nodes.createdAt), desc(nodes.id)];
export const ALPHABETICAL_ORDER = [asc(sql`lower(${nodes.name})`), asc(nodes.id)];

/**
 * One page of nodes matching `where`, and how many match in all: counted (exact up to TOTAL_COUNT_CAP,
 * beyond it capped) unless the caller knows, or the page is the last.
 */
export const findPage = async (
  db: DbOrTx,
  options: {
    where: SQL | undefined;
    order: SQL[];
    limit: number;
    offset: number;
    hidden: readonly string[];
    knownTotal?: number;
    /**
     * Count while the page is read, when the database answers both at once (PostgreSQL): the count is
     * thrown away if the page turns out to be the last, but a broad search waits for one read, not two.
     */
    countAlongside?: boolean;
  },
) => {
  // Counted along the account's time index whatever the page's order: a broad search reaches the cap after a
  // few thousand rows, a narrow one is found through the trigram index (alphabetically, the names of one
  // word cluster, and walking a name index to them reads most of the table).
  const count = () => countUpTo(db, nodes, options.where, { order: TIME_ORDER });
  const counting = options.knownTotal === undefined && options.countAlongside ? count() : undefined;
  counting?.catch(() => undefined);
  // One row past the page says whether another page follows, whatever the count says.
  const fetched = await findPresentable(db, options.where, options.hidden)
    .orderBy(...options.order)
    .limit(options.limit + 1)
    .offset(options.offset);
  const more = fetched.length > options.limit;
  const rows = more ? fetched.slice(0, options.limit) : fetched;
  if (options.knownTotal !== undefined) return { rows, more, total: options.knownTotal, totalCapped: false };
  const shown = options.offset + rows.length;
  // The last page tells the total exactly, past the cap too; an empty page past the start counts (rows moved).
  if (!more && (rows.length > 0 || options.offset === 0))
    return { rows, more, total: shown, totalCapped: false };
  const counted = await (counting ?? count());
  return { rows, more, ...atLeastShown(counted, shown) };
};

export const findMedia = async (db: DbOrTx, id: number) => {
  const [row] = await db.select().from(media).where(eq(media.id, id));
  return row;
};

/** A media's stored files (proxy and original) for a signed download link. */
export const findMediaDownload = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({ storagePath: media.storagePath, sourcePath: media.sourcePath, contentType: media.contentType })
    .from(media)
    .where(eq(media.id, id));
  return row;
};

export const findMediaNames = (db: DbOrTx, accountId: number, ids: number[]) =>
  ids.length
    ? db
        .select({ id: media.id, name: media.name })
        .from(media)
        .where(and(eq(media.accountId, accountId), inArray(media.id, ids)))
    : Promise.resolve([]);

/**
 * The inner paths of the nodes of an account that show each of these media (through the media index): a
 * media is hidden from a role when folders hide every one of them.
 */
export const findPathsOfMedia = async (db: DbOrTx, accountId: number, mediaIds: readonly number[]) => {
  const byMedia = new Map<number, string[]>(mediaIds.map((id) => [id, []]));
  if (mediaIds.length === 0) return byMedia;
  const rows = await db
    .select({ mediaId: nodes.mediaId, path: nodes.path })
    .from(nodes)
    .where(
      and(
        mediaIds.length === 1
          ? eq(nodes.mediaId, mediaIds[0] as number)
          : inArray(nodes.mediaId, [...mediaIds]),
        eq(nodes.accountId, accountId),
      ),
    );
  for (const row of rows) byMedia.get(row.mediaId as number)?.push(row.path);
  return byMedia;
};

/** The inner paths of the nodes of an account that show a thumbnail (through the thumbnail index). */
export const findPathsOfThumb = async (db: DbOrTx, accountId: number, thumbId: number) =>
  (
    await db
      .select({ path: nodes.path })
      .from(nodes)
      .where(and(eq(nodes.thumbId, thumbId), eq(nodes.accountId, accountId)))
  ).map((row) => row.path);

export const findThumb = async (db: DbOrTx, id: number) => {
  const [row] = await db.select().from(thumbs).where(eq(thumbs.id, id));
  return row;
};

/** Lower-cased names of a folder's children, to find a free or a taken name. */
export const childNames = async (db: DbOrTx, parentId: number) =>
  new Set(
    (await db.select({ name: nodes.name }).from(nodes).where(eq(nodes.parentId, parentId))).map((row) =>
      row.name.toLowerCase(),
    ),
  );

/** The metadata of the nodes that show these media, one node per media (the oldest shown), for accumulation. */
export const findMetadataOfMedia = async (
  db: DbOrTx,
  accountId: number,
  mediaIds: number[],
  /** Which nodes may be read (those the caller sees). */
  shown?: SQL,
) => {
  const rows = await db
    .selectDistinctOn([nodes.mediaId], { mediaId: nodes.mediaId, metadata: nodes.metadata })
    .from(nodes)
    .where(and(eq(nodes.accountId, accountId), inArray(nodes.mediaId, mediaIds), shown))
    .orderBy(nodes.mediaId, asc(nodes.id));
  return new Map(rows.map((row) => [row.mediaId as number, row.metadata]));
};

/** An account's media by id with their files and picture (the pieces of an edl). */
export const findMediaFiles = (db: DbOrTx, accountId: number, ids: number[]) =>
  db
    .select({
      id: media.id,
      name: media.name,
      storagePath: media.storagePath,
      width: media.width,
      height: media.height,
      duration: media.duration,
      fps: media.fps,
    })
    .from(media)
    .where(and(eq(media.accountId, accountId), inArray(media.id, ids)));

/** The nodes that show a media (their live updates follow the media's changes). */
export const findNodeIdsOfMedia = async (db: DbOrTx, mediaId: number) =>
  (await db.select({ id: nodes.id }).from(nodes).where(eq(nodes.mediaId, mediaId))).map((row) => row.id);
