import { type AuditPlace, type AuditTargetType, INT4_MAX } from '@media/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { AuditQuestion, AuditScope } from '../../platform/http/audit.ts';
import { invites, roles } from '../access/tables.ts';
import { apiTokens } from '../api-tokens/tables.ts';
import { arrivalsFolders } from '../arrivals/tables.ts';
import { sessions } from '../auth/tables.ts';
import { edgeCommands, edgeServers, endpoints, services } from '../edge/tables.ts';
import { ingestQueueItems } from '../ingest/tables.ts';
import { media, nodes } from '../nodes/tables.ts';
import { accounts, siteGroups, sites } from '../organisation/tables.ts';
import { publishButtons, publishes, publishIcons } from '../publishing/tables.ts';
import { uploads } from '../uploads/tables.ts';
import { webhookDeliveries, webhooks } from '../webhooks/tables.ts';

/** An entity's id as its serial column holds it; undefined for anything else (a junk path value). */
const serialOf = (id: string | null) =>
  id && /^\d{1,10}$/.test(id) && Number(id) <= INT4_MAX ? Number(id) : undefined;

/**
 * Where each kind of entity sits: one row of (account, site, site group, reseller, user), any of them null.
 * What is not here (a user, a notification, a key shortcut) sits nowhere in the hierarchy; the place around
 * it in the path, or the request's hints, tell where.
 */
const PLACES: Partial<Record<AuditTargetType, (id: string) => SQL | undefined>> = {
  account: (id) => literal({ account: serialOf(id) }),
  site: (id) => literal({ site: serialOf(id) }),
  siteGroup: (id) => literal({ siteGroup: serialOf(id) }),
  reseller: (id) => literal({ reseller: serialOf(id) }),
  node: (id) => ofAccount(nodes, nodes.accountId, nodes.id, id),
  media: (id) => ofAccount(media, media.accountId, media.id, id),
  publish: (id) => ofAccount(publishes, publishes.accountId, publishes.id, id),
  ingestQueueItem: (id) => ofAccount(ingestQueueItems, ingestQueueItems.accountId, ingestQueueItems.id, id),
  arrivalsFolder: (id) => ofAccount(arrivalsFolders, arrivalsFolders.accountId, arrivalsFolders.id, id),
  invite: (id) => ofAccount(invites, invites.accountId, invites.id, id),
  upload: (id) => ofAccount(uploads, uploads.accountId, uploads.id, id),
  webhook: (id) => ofAccount(webhooks, webhooks.accountId, webhooks.id, id),
  publishButton: (id) =>
    byId(
      id,
      (n) =>
        sql`select ${publishButtons.accountId}, ${publishButtons.siteId}, null::int, null::int, null::int from ${publishButtons} where ${publishButtons.id} = ${n}`,
    ),
  publishIcon: (id) =>
    byId(
      id,
      (n) =>
        sql`select ${publishIcons.accountId}, ${publishIcons.siteId}, null::int, null::int, null::int from ${publishIcons} where ${publishIcons.id} = ${n}`,
    ),
  webhookDelivery: (id) =>
    byId(
      id,
      (n) =>
        sql`select ${webhooks.accountId}, null::int, null::int, null::int, null::int from ${webhookDeliveries} join ${webhooks} on ${webhooks.id} = ${webhookDeliveries.webhookId} where ${webhookDeliveries.id} = ${n}`,
    ),
  edgeServer: (id) => byId(id, (n) => edgeSql(sql`${edgeServers.id} = ${n}`)),
  service: (id) =>
    byId(id, (n) =>
      edgeSql(
        sql`${edgeServers.id} = (select ${services.edgeServerId} from ${services} where ${services.id} = ${n})`,
      ),
    ),
  edgeCommand: (id) =>
    byId(id, (n) =>
      edgeSql(
        sql`${edgeServers.id} = (select ${edgeCommands.edgeServerId} from ${edgeCommands} where ${edgeCommands.id} = ${n})`,
      ),
    ),
  endpoint: (id) =>
    byId(
      id,
      (n) =>
        sql`select ${endpoints.accountId}, coalesce(${endpoints.siteId}, ${edgeServers.siteId}), null::int, null::int, null::int from ${endpoints} join ${services} on ${services.id} = ${endpoints.serviceId} join ${edgeServers} on ${edgeServers.id} = ${services.edgeServerId} where ${endpoints.id} = ${n}`,
    ),
  session: (id) =>
    sql`select ${sessions.accountId}, null::int, null::int, null::int, ${sessions.userId} from ${sessions} where ${sessions.publicId} = ${id.slice(0, 64)}`,
  apiToken: (id) =>
    byId(
      id,
      (n) =>
        sql`select null::int, null::int, null::int, null::int, ${apiTokens.userId} from ${apiTokens} where ${apiTokens.id} = ${n}`,
    ),
};

const literal = (ids: { account?: number; site?: number; siteGroup?: number; reseller?: number }) =>
  sql`select ${ids.account ?? null}::int, ${ids.site ?? null}::int, ${ids.siteGroup ?? null}::int, ${ids.reseller ?? null}::int, null::int`;

const byId = (id: string, query: (n: number) => SQL) => {
  const n = serialOf(id);
  return n === undefined ? undefined : query(n);
};

const ofAccount = (table: PgTable, accountId: AnyPgColumn, key: AnyPgColumn, id: string) =>
  byId(
    id,
    (n) =>
      sql`select ${accountId}, null::int, null::int, null::int, null::int from ${table} where ${key} = ${n}`,
  );

/** An edge server sits at its site (site context); one of a user's own (user context) concerns that user. */
const edgeSql = (which: SQL) =>
  sql`select null::int, ${edgeServers.siteId}, null::int, null::int, case when ${edgeServers.siteId} is null then ${edgeServers.userId} end from ${edgeServers} where ${which}`;

/** The innermost place of the path that sits somewhere, as SQL (undefined when none does). */
const placeSql = (places: AuditPlace[]) => {
  for (const place of [...places].reverse()) {
    const query = place.id === null ? undefined : PLACES[place.type]?.(place.id);
    if (query) return query;
  }
  return undefined;
};

type ScopeRow = {
  account_id: number | null;
  site_id: number | null;
  site_group_id: number | null;
  reseller_id: number | null;
  user_id: number | null;
  acting_role_name: string | null;
};

/**
 * Where a request's change sits: the innermost place its path names (or the ids its body or query gives),
 * completed upwards through the hierarchy (an account's site, its group, their reseller); the user it
 * concerns; the name of the role a session acts as. One statement; none when there is nothing to look up.
 */
export const findScope = async (db: DbOrTx, question: AuditQuestion): Promise<AuditScope> => {
  const { hints } = question;
  const place =
    placeSql(question.places) ??
    (hints.accountId || hints.siteId || hints.siteGroupId || hints.resellerId
      ? literal({
          account: hints.accountId,
          site: hints.siteId,
          siteGroup: hints.siteGroupId,
          reseller: hints.resellerId,
        })
      : undefined);
  if (!place && question.actingRoleId === undefined)
    return {
      accountId: null,
      siteId: null,
      siteGroupId: null,
      resellerId: null,
      userId: question.userId,
      actingRoleName: null,
    };
  const result = (await db.execute(sql`
    with p (account_id, site_id, site_group_id, reseller_id, user_id) as (${place ?? literal({})})
    select p.account_id, s.id as site_id, g.id as site_group_id,
      coalesce(g.reseller_id, p.reseller_id) as reseller_id, p.user_id,
      (select ${roles.name} from ${roles} where ${roles.id} = ${question.actingRoleId ?? null}::int) as acting_role_name
    from (select 1) as one
      left join p on true
      left join ${accounts} a on a.id = p.account_id
      left join ${sites} s on s.id = coalesce(p.site_id, a.site_id)
      left join ${siteGroups} g on g.id = coalesce(p.site_group_id, s.site_group_id)
    limit 1`)) as unknown as { rows: ScopeRow[] };
  const row = result.rows[0];
  return {
    accountId: row?.account_id ?? null,
    siteId: row?.site_id ?? null,
    siteGroupId: row?.site_group_id ?? null,
    resellerId: row?.reseller_id ?? null,
    userId: question.userId ?? row?.user_id ?? null,
    actingRoleName: row?.acting_role_name ?? null,
  };
};
