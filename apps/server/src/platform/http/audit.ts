import {
  AUDIT_EXEMPT_OPERATIONS,
  type AuditActorType,
  type AuditField,
  type AuditOutcome,
  type AuditPlace,
  type AuditRoute,
  type AuditStanding,
  type AuditTargetType,
  type AuditVia,
  auditFieldsOf,
  auditRouteOf,
  INT4_MAX,
  operationIdOf,
  type RightsSnapshot,
} from '@media/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Actor } from '../auth/actor.ts';
import './request-context.ts'; // request.actor, machineActor

/**
 * The audit log's one place of writing for requests (issue 33): every non-GET route under /api, whoever
 * registered it, writes one row when it answers, in its own transaction, success or failure; no route can
 * forget it. The operation ids of the OpenAPI document come from the same rule (operationIdOf), so the two
 * always agree. What a row needs from the database (where its target sits) the audit module answers, through
 * the AuditSink given here: platform never reads a module's tables.
 */

/** Ids a request may carry towards the hierarchy, when its path names nothing there (body or query). */
export type AuditHints = { accountId?: number; siteId?: number; siteGroupId?: number; resellerId?: number };

/** What the audit module is asked about a request, before its handler runs (a trash may remove its target). */
export type AuditQuestion = {
  places: AuditPlace[];
  hints: AuditHints;
  /** The user concerned when the path says it (a user's id in it, or `/api/me`). */
  userId: number | null;
  actingRoleId: number | undefined;
};

/** Where the change sat, the user it concerned, and the name of the role a session acted as. */
export type AuditScope = {
  accountId: number | null;
  siteId: number | null;
  siteGroupId: number | null;
  resellerId: number | null;
  userId: number | null;
  actingRoleName: string | null;
};

/** One row of the log as the writer takes it (the time is the database's). */
export type AuditRow = AuditScope & {
  actorType: AuditActorType;
  actorId: number | null;
  actorName: string | null;
  actingRole: string | null;
  via: AuditVia | null;
  operation: string;
  targetType: AuditTargetType | null;
  targetId: string | null;
  fields: AuditField[];
  ip: string | null;
  requestId: string | null;
  outcome: AuditOutcome;
  status: number | null;
};

export type AuditSink = {
  scopeOf: (question: AuditQuestion) => Promise<AuditScope>;
  write: (row: Omit<AuditRow, 'actingRoleName'>) => Promise<void>;
};

/** What a route may add that its path and status do not tell (a sign-in: who signed in, or that it failed). */
export type AuditNote = {
  failed?: boolean;
  actor?: { id: number; name: string };
  /**
   * A routine report that changed nothing anyone audits (an agent's progress while its item or publish stays
   * as it was): no row when it succeeds; the reports that change a status write theirs.
   */
  routine?: boolean;
};

type RequestAudit = {
  operation: string;
  route: AuditRoute;
  scope?: Promise<AuditScope | undefined>;
  note?: AuditNote;
  written: boolean;
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The audit row this request writes when it answers; null for reads and exempt operations. */
    audit: RequestAudit | null;
  }
  interface FastifyContextConfig {
    /** A GET that changes state (the identity provider's redirect back signs in or links): audited too. */
    audit?: boolean;
  }
}

/** A sign-in and the like: says what the answer's status cannot (see AuditNote). */
export const noteAudit = (request: FastifyRequest, note: AuditNote) => {
  if (request.audit) request.audit.note = { ...request.audit.note, ...note };
};

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const NO_SCOPE: AuditScope = {
  accountId: null,
  siteId: null,
  siteGroupId: null,
  resellerId: null,
  userId: null,
  actingRoleName: null,
};

/** An id as a body, a query or a path gives it: a serial's positive int4, else nothing. */
const idOf = (value: unknown) => {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,10}$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isInteger(n) && n > 0 && n <= INT4_MAX ? n : undefined;
};

const recordOf = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

const hintsOf = (request: FastifyRequest): AuditHints => {
  const body = recordOf(request.body);
  const query = recordOf(request.query);
  const pick = (name: string) => idOf(body[name]) ?? idOf(query[name]);
  return {
    accountId: pick('accountId'),
    siteId: pick('siteId'),
    siteGroupId: pick('siteGroupId'),
    resellerId: pick('resellerId'),
  };
};

const userConcerned = (route: AuditRoute, actor: Actor | null) => {
  if (route.own) return actor?.userId ?? null;
  const place = route.places.findLast((p) => p.type === 'user');
  return idOf(place?.id) ?? null;
};

const askScope = (sink: AuditSink, request: FastifyRequest, audit: RequestAudit) =>
  sink
    .scopeOf({
      places: audit.route.places,
      hints: hintsOf(request),
      userId: userConcerned(audit.route, request.actor),
      actingRoleId: request.actor?.actingRoleId,
    })
    .catch((error: unknown) => {
      request.log.warn({ err: error }, 'finding where an audited change sat failed');
      return undefined;
    });

const has = (set: ReadonlySet<number>, id: number | null) => id !== null && set.has(id);

/** The standing the rights gave at the change's place. */
const standingOf = (rights: RightsSnapshot, scope: AuditScope): AuditStanding => {
  if (rights.admin) return 'administrator';
  if (has(rights.resellers, scope.resellerId)) return 'reseller manager';
  if (has(rights.siteGroups, scope.siteGroupId)) return 'site group manager';
  if (has(rights.sites, scope.siteId)) return 'site manager';
  if (has(rights.accountManager, scope.accountId)) return 'account manager';
  if (has(rights.accounts, scope.accountId)) return 'account user';
  return 'user';
};

/** The id of what a POST or PUT to a collection made: `results.id` of its JSON answer. */
const createdIdOf = (payload: unknown) => {
  if (typeof payload !== 'string' || payload.length > 100_000 || !payload.startsWith('{')) return null;
  try {
    const id = recordOf(recordOf(JSON.parse(payload)).results).id;
    return typeof id === 'number' || typeof id === 'string' ? String(id) : null;
  } catch {
    return null;
  }
};

const targetOf = (audit: RequestAudit, actor: Actor | null, succeeded: boolean, created: string | null) => {
  const { route } = audit;
  if (route.creates) return { type: route.creates, id: succeeded ? created : null };
  const place = route.places.at(-1);
  if (place) return place;
  return route.own && actor ? { type: 'user' as const, id: String(actor.userId) } : null;
};

const actorOf = (request: FastifyRequest, note: AuditNote | undefined) => {
  const { actor, machineActor } = request;
  if (actor)
    return {
      actorType: 'user' as const,
      actorId: actor.userId,
      actorName: actor.username,
      via: actor.apiToken ? ('token' as const) : ('session' as const),
    };
  if (machineActor)
    return {
      actorType: machineActor.type,
      actorId: machineActor.id,
      actorName: machineActor.name,
      via: 'agent' as const,
    };
  if (note?.actor)
    return {
      actorType: 'user' as const,
      actorId: note.actor.id,
      actorName: note.actor.name,
      via: 'session' as const,
    };
  return { actorType: 'anonymous' as const, actorId: null, actorName: null, via: null };
};

const write = async (
  sink: AuditSink,
  request: FastifyRequest,
  audit: RequestAudit,
  status: number,
  created: string | null,
) => {
  audit.written = true;
  // Refused by the rate limit before anything was read: a row each would make a flood cost a write each.
  if (status === 429) return;
  if (status < 400 && audit.note?.routine) return;
  try {
    let scope = (await (audit.scope ?? askScope(sink, request, audit))) ?? NO_SCOPE;
    const failed = status >= 400 || audit.note?.failed === true;
    const target = targetOf(audit, request.actor, !failed, created);
    // What a creation made sits where its path did not say (an agent's new queue item): ask it, now it exists.
    if (target?.id && audit.route.creates && scope.accountId === null && scope.siteId === null)
      scope =
        (await askScope(sink, request, { ...audit, route: { ...audit.route, places: [target] } })) ?? scope;
    const rights = request.actor ? await request.actor.rights() : undefined;
    const { actingRoleName, ...where } = scope;
    await sink.write({
      ...where,
      ...actorOf(request, audit.note),
      actingRole: actingRoleName ?? (rights ? standingOf(rights, scope) : null),
      operation: audit.operation,
      targetType: target?.type ?? null,
      targetId: target?.id ?? null,
      fields: auditFieldsOf(request.body),
      ip: request.ip,
      requestId: request.id,
      outcome: failed ? 'failure' : 'success',
      status,
    });
  } catch (error) {
    // The change is made (or refused) whatever happens here: a failed row is a warning, never a 500.
    request.log.warn({ err: error }, 'writing the audit row of a request failed');
  }
};

/** The operation of a route: its declared id, or the one operationIdOf gives (hidden, multi-method routes). */
const operationOf = (request: FastifyRequest) => {
  const declared = (request.routeOptions.schema as { operationId?: unknown } | undefined)?.operationId;
  return typeof declared === 'string'
    ? declared
    : operationIdOf(request.method, request.routeOptions.url ?? '');
};

/**
 * Registers the audit of requests; before any route, so that each gets its operation id. Rows are written
 * before the answer leaves (onSend), so a page read after a change shows it; an answer a route hijacked
 * (tus uploads) writes its row once sent (onResponse).
 */
export const registerAudit = (app: FastifyInstance, sink: AuditSink) => {
  app.decorateRequest('audit', null);

  app.addHook('onRoute', (route: RouteOptions) => {
    if (Array.isArray(route.method)) return;
    const schema = route.schema as { operationId?: string } | undefined;
    if (!schema?.operationId)
      route.schema = {
        ...(schema ?? {}),
        operationId: operationIdOf(route.method, route.url),
      } as typeof route.schema;
  });

  // Before the session is read: a request refused there (anti-forgery, a bad token) writes its row too.
  app.addHook('onRequest', (request, _reply, done) => {
    const url = request.routeOptions.url;
    const auditedRead = (request.routeOptions.config as { audit?: boolean } | undefined)?.audit === true;
    if ((!READS.has(request.method) || auditedRead) && url?.startsWith('/api/')) {
      const operation = operationOf(request);
      if (!(operation in AUDIT_EXEMPT_OPERATIONS))
        request.audit = {
          operation,
          route: auditRouteOf(request.method, url, recordOf(request.params)),
          written: false,
        };
    }
    done();
  });

  // Once the input is valid, where the target sits is read before the handler changes it (a trash).
  app.addHook('preHandler', (request, _reply, done) => {
    const audit = request.audit;
    if (!audit) {
      done();
      return;
    }
    audit.scope = askScope(sink, request, audit);
    void audit.scope.then(() => done());
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const audit = request.audit;
    if (audit && !audit.written)
      await write(sink, request, audit, reply.statusCode, audit.route.creates ? createdIdOf(payload) : null);
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    const audit = request.audit;
    if (!audit || audit.written) return;
    const location = reply.raw.getHeader('location');
    const created = typeof location === 'string' ? (location.split('/').at(-1) ?? null) : null;
    await write(sink, request, audit, reply.raw.statusCode, created);
  });
};
