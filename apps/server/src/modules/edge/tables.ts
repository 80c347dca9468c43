import {
  EDGE_CONNECTED_WITHIN_SECONDS,
  type EdgeAdvancedOptions,
  type ServiceOptions,
} from '@media/contract';
import { type SQL, sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { arrivalsFolders } from '../arrivals/tables.ts';
import { accounts, sites, workflows } from '../organisation/tables.ts';
import { users } from '../users/tables.ts';

/** An edge server: a machine at a customer's site running the edge agent (spec2 §3). */
export const edgeServers = pgTable(
  'edge_servers',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    type: text().notNull().default('server'),
    /** The owner: the user context lists a user's own edge servers. */
    userId: integer()
      .notNull()
      .references(() => users.id),
    /** The site whose managers see it in the site context; null = the owner's alone. */
    siteId: integer().references(() => sites.id),
    endpointVersions: jsonb().$type<Record<string, string>>().notNull().default({}),
    advancedOptions: jsonb().$type<EdgeAdvancedOptions>().notNull(),
    /** SHA-256 of the agent's token; the token itself is shown once, at create. */
    agentTokenHash: text().notNull().unique(),
    lastSeenAt: timestamp({ withTimezone: true }),
    supportConnection: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('edge_servers_user_type_idx').on(t.userId, t.type, sql`lower(${t.name})`),
    index('edge_servers_site_type_idx').on(t.siteId, t.type, sql`lower(${t.name})`),
    index('edge_servers_type_idx').on(t.type, sql`lower(${t.name})`),
  ],
);

/** Requests for the agent (machine load, speed test, service restart) and, once done, its answer. */
export const edgeCommands = pgTable(
  'edge_commands',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    edgeServerId: integer()
      .notNull()
      .references(() => edgeServers.id, { onDelete: 'cascade' }),
    /** e.g. machineLoad, runNewEdgeSpeedTest, service:restart, endpoint:reset. */
    action: text().notNull(),
    targetId: integer(),
    requestedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp({ withTimezone: true }),
    result: jsonb().$type<Record<string, string | number | boolean | null>>(),
  },
  (t) => [index().on(t.edgeServerId, t.action, t.requestedAt)],
);

/** A service running on an edge server (spec2 §3). */
export const services = pgTable(
  'edge_services',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    edgeServerId: integer()
      .notNull()
      .references(() => edgeServers.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    typeId: text().notNull(),
    /** Services of one group stand in for each other across edge servers; a new group is the service's own id. */
    serviceGroupId: integer().notNull(),
    options: jsonb().$type<ServiceOptions>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.edgeServerId), index().on(t.serviceGroupId)],
);

/** A source or stream of a service (spec2 §3). */
export const endpoints = pgTable(
  'edge_endpoints',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    serviceId: integer()
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    typeId: text().notNull(),
    accountId: integer().references(() => accounts.id, { onDelete: 'set null' }),
    siteId: integer().references(() => sites.id, { onDelete: 'set null' }),
    /** The arrivals folder assignment (spec2 §7): one folder per endpoint. */
    arrivalsFolderId: integer().references(() => arrivalsFolders.id, { onDelete: 'set null' }),
    /**
     * Who set the arrivals folder (issue 30): media lands through the endpoint while that person may still
     * assign the account's arrivals, or the edge server's owner manages the account. Null before the rule.
     */
    arrivalsSetBy: integer().references(() => users.id, { onDelete: 'set null' }),
    workflowId: integer().references(() => workflows.id, { onDelete: 'set null' }),
    options: jsonb().$type<Record<string, string | number | boolean>>().notNull().default({}),
    online: boolean().notNull().default(false),
    pendingSettings: boolean().notNull().default(false),
    status: text({ enum: ['ok', 'disabled', 'warning', 'error'] })
      .notNull()
      .default('ok'),
    bad: boolean().notNull().default(false),
    /** What the agent last reported of this endpoint (DESIGN "Endpoint health is reported, not assumed"). */
    statusMessage: text().notNull().default(''),
    statusReportedAt: timestamp({ withTimezone: true }),
    recording: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.serviceId), index().on(t.accountId), index().on(t.arrivalsFolderId)],
);

/** Whether an edge server's agent has been heard from lately (spec2: connected), as a column expression. */
export const edgeServerConnected = (): SQL<boolean> =>
  sql<boolean>`coalesce(${edgeServers.lastSeenAt} > now() - make_interval(secs => ${EDGE_CONNECTED_WITHIN_SECONDS}), false)`;

/**
 * What an endpoint's status really is (DESIGN: health is reported, not assumed): a person's disabled; an
 * error while its edge server is not connected; a warning until its agent has reported it; else the report.
 */
export const endpointShownStatus = (): SQL<string> =>
  sql<string>`case
    when ${endpoints.status} = 'disabled' then 'disabled'
    when not ${edgeServerConnected()} then 'error'
    when ${endpoints.statusReportedAt} is null then 'warning'
    else ${endpoints.status} end`;
