import { and, asc, count, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { roles } from '../access/tables.ts';
import { edgeServerConnected, edgeServers } from '../edge/tables.ts';
import { publishButtons, publishes, publishIcons } from './tables.ts';

export type ButtonRow = typeof publishButtons.$inferSelect;
export type ButtonValues = Omit<typeof publishButtons.$inferInsert, 'id' | 'createdAt' | 'deletedAt'>;
export type IconRow = typeof publishIcons.$inferSelect;
/** Who owns a button or an icon: an account or a site. */
export type Owner = { accountId: number } | { siteId: number };

const ownedBy = (table: typeof publishButtons | typeof publishIcons, owners: Owner[]): SQL =>
  or(
    ...owners.map((owner) =>
      'accountId' in owner ? eq(table.accountId, owner.accountId) : eq(table.siteId, owner.siteId),
    ),
  ) as SQL;

/** The buttons of the owners that are not in the trash, by name. */
export const findButtons = (db: DbOrTx, owners: Owner[]) =>
  db
    .select()
    .from(publishButtons)
    .where(and(ownedBy(publishButtons, owners), isNull(publishButtons.deletedAt)))
    .orderBy(asc(sql`lower(${publishButtons.name})`), asc(publishButtons.id));

export const findButton = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select()
    .from(publishButtons)
    .where(and(eq(publishButtons.id, id), isNull(publishButtons.deletedAt)));
  return row;
};

export const insertButton = async (db: DbOrTx, values: ButtonValues) => {
  const [row] = await db.insert(publishButtons).values(values).returning({ id: publishButtons.id });
  return (row as { id: number }).id;
};

export const updateButton = (db: DbOrTx, id: number, values: Partial<ButtonValues>) =>
  db
    .update(publishButtons)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(publishButtons.id, id));

/** Marks the button deleted and sends its published items to the Recycle Bin; answers their ids. */
export const trashButton = async (db: DbOrTx, id: number) => {
  await db.update(publishButtons).set({ deletedAt: sql`now()` }).where(eq(publishButtons.id, id));
  return db
    .update(publishes)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(publishes.buttonId, id), isNull(publishes.deletedAt)))
    .returning({ id: publishes.id, accountId: publishes.accountId });
};

export const countPublishedItems = async (db: DbOrTx, buttonId: number) => {
  const [row] = await db
    .select({ n: count() })
    .from(publishes)
    .where(and(eq(publishes.buttonId, buttonId), isNull(publishes.deletedAt)));
  return row?.n ?? 0;
};

/** The icons of the owners that are not in the trash, oldest first. */
export const findIcons = (db: DbOrTx, owners: Owner[]) =>
  db
    .select()
    .from(publishIcons)
    .where(and(ownedBy(publishIcons, owners), isNull(publishIcons.deletedAt)))
    .orderBy(asc(publishIcons.id));

export const findIcon = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select()
    .from(publishIcons)
    .where(and(eq(publishIcons.id, id), isNull(publishIcons.deletedAt)));
  return row;
};

export const insertIcon = async (
  db: DbOrTx,
  values: { accountId: number | null; siteId: number | null; name: string; storagePath: string },
) => {
  const [row] = await db
    .insert(publishIcons)
    .values({ ...values, contentType: 'image/png' })
    .returning({ id: publishIcons.id });
  return (row as { id: number }).id;
};

/** Trashes the icon and takes it off the buttons that showed it; answers those buttons. */
export const trashIcon = async (db: DbOrTx, id: number) => {
  await db.update(publishIcons).set({ deletedAt: sql`now()` }).where(eq(publishIcons.id, id));
  return db
    .update(publishButtons)
    .set({ iconId: null, updatedAt: sql`now()` })
    .where(eq(publishButtons.iconId, id))
    .returning({ id: publishButtons.id, accountId: publishButtons.accountId, siteId: publishButtons.siteId });
};

/** Roles offered on a site (the cloud-wide ones and the site's own), by name; read-only. */
export const findSiteRoles = (db: DbOrTx, siteId: number) =>
  db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(or(isNull(roles.siteId), eq(roles.siteId, siteId)))
    .orderBy(asc(sql`lower(${roles.name})`), asc(roles.id));

/** The edge servers of a site with whether their agent was heard from lately; read-only. */
export const findSiteEdgeServers = (db: DbOrTx, siteId: number) =>
  db
    .select({ id: edgeServers.id, name: edgeServers.name, available: edgeServerConnected() })
    .from(edgeServers)
    // Relays only forward; publishing runs on edge servers proper.
    .where(and(eq(edgeServers.siteId, siteId), eq(edgeServers.type, 'server')))
    .orderBy(asc(sql`lower(${edgeServers.name})`), asc(edgeServers.id));

export const findEdgeServersOfSite = (db: DbOrTx, siteId: number, ids: number[]) =>
  ids.length
    ? db
        .select({ id: edgeServers.id })
        .from(edgeServers)
        .where(
          and(eq(edgeServers.siteId, siteId), eq(edgeServers.type, 'server'), inArray(edgeServers.id, ids)),
        )
    : Promise.resolve([]);
