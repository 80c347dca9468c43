import type { WebhookDeliveryStatus, WebhookEvent } from '@media/contract';
import { and, count, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { accounts } from '../organisation/tables.ts';
import { webhookDeliveries, webhooks } from './tables.ts';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The last delivery of each webhook listed, for its status column. */
const lastDelivery = {
  at: sql<Date | null>`(select d.created_at from webhook_deliveries d where d.webhook_id = ${webhooks.id} order by d.id desc limit 1)`.mapWith(
    webhookDeliveries.createdAt,
  ),
  status: sql<WebhookDeliveryStatus | null>`(select d.status from webhook_deliveries d where d.webhook_id = ${webhooks.id} order by d.id desc limit 1)`,
};

const ownerIs = (accountId: number | null) =>
  accountId === null ? isNull(webhooks.accountId) : eq(webhooks.accountId, accountId);

/** An account's webhooks (or the cloud's, null), oldest first, with their last delivery. */
export const listOf = async (
  db: DbOrTx,
  accountId: number | null,
  page: { offset: number; limit: number },
) => {
  const rows = await db
    .select({ webhook: webhooks, lastDeliveryAt: lastDelivery.at, lastDeliveryStatus: lastDelivery.status })
    .from(webhooks)
    .where(ownerIs(accountId))
    .orderBy(webhooks.id)
    .offset(page.offset)
    .limit(page.limit);
  const [total] = await db.select({ n: count() }).from(webhooks).where(ownerIs(accountId));
  return { rows, total: total?.n ?? 0 };
};

export const find = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({ webhook: webhooks, lastDeliveryAt: lastDelivery.at, lastDeliveryStatus: lastDelivery.status })
    .from(webhooks)
    .where(eq(webhooks.id, id));
  return row;
};

export const insert = async (db: DbOrTx, values: typeof webhooks.$inferInsert) => {
  const [row] = await db.insert(webhooks).values(values).returning({ id: webhooks.id });
  if (!row) throw new Error('The webhook was not stored');
  return row.id;
};

export const update = (db: DbOrTx, id: number, values: Partial<typeof webhooks.$inferInsert>) =>
  db.update(webhooks).set(values).where(eq(webhooks.id, id));

export const remove = (db: DbOrTx, id: number) => db.delete(webhooks).where(eq(webhooks.id, id));

/** The enabled webhooks that want this event: the account's and the cloud's. */
export const listeners = (db: DbOrTx, type: WebhookEvent, accountId: number | null) =>
  db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.enabled, true),
        sql`${webhooks.events} @> ${JSON.stringify([type])}::jsonb`,
        accountId === null
          ? isNull(webhooks.accountId)
          : or(isNull(webhooks.accountId), eq(webhooks.accountId, accountId)),
      ),
    );

export const insertDeliveries = async (db: DbOrTx, values: (typeof webhookDeliveries.$inferInsert)[]) =>
  values.length
    ? (await db.insert(webhookDeliveries).values(values).returning({ id: webhookDeliveries.id })).map(
        (r) => r.id,
      )
    : [];

/** A webhook's deliveries, newest first. */
export const deliveriesOf = async (
  db: DbOrTx,
  webhookId: number,
  query: { offset: number; limit: number; status?: WebhookDeliveryStatus },
) => {
  const where = and(
    eq(webhookDeliveries.webhookId, webhookId),
    query.status ? eq(webhookDeliveries.status, query.status) : undefined,
  );
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.id))
    .offset(query.offset)
    .limit(query.limit);
  const [total] = await db.select({ n: count() }).from(webhookDeliveries).where(where);
  return { rows, total: total?.n ?? 0 };
};

export const findDelivery = async (db: DbOrTx, id: number) => {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
};

const forAttempt = (db: DbOrTx, deliveryId: number) =>
  db
    .select({ delivery: webhookDeliveries, webhook: webhooks })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(eq(webhookDeliveries.id, deliveryId));

/** The delivery and its webhook, to send it. */
export const findForAttempt = async (db: DbOrTx, deliveryId: number) => (await forAttempt(db, deliveryId))[0];

/**
 * The same, the webhook's row locked in the caller's transaction: attempts of several deliveries of one
 * webhook count its failures in a row one after the other.
 */
export const lockForAttempt = async (db: DbOrTx, deliveryId: number) =>
  (await forAttempt(db, deliveryId).for('update', { of: webhooks }))[0];

export const updateDelivery = (
  db: DbOrTx,
  id: number,
  values: Partial<typeof webhookDeliveries.$inferInsert>,
) => db.update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, id));

/** Deliveries still waiting for an attempt when their webhook is disabled or removed: they will not be sent. */
export const failWaiting = (db: DbOrTx, webhookId: number, error: string) =>
  db
    .update(webhookDeliveries)
    .set({ status: 'failed', error, nextAttemptAt: null })
    .where(
      and(
        eq(webhookDeliveries.webhookId, webhookId),
        or(eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.status, 'retrying')),
      ),
    );

export const accountName = async (db: DbOrTx, accountId: number) =>
  (await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId)))[0]?.name;

/** Removes ended deliveries created before `before` (at most `limit` at a time). */
export const pruneEnded = (db: DbOrTx, before: Date, limit: number) =>
  db.execute(sql`delete from webhook_deliveries where id in (
    select id from webhook_deliveries
    where created_at < ${before.toISOString()} and status in ('delivered', 'failed', 'refused')
    limit ${limit})`);
