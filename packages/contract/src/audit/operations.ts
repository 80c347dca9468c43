/**
 * The operation and the target of a request, read from its route (issue 33): one rule gives the OpenAPI
 * document its operation ids and the audit log its `operation`, so the two always agree, and one rule reads
 * the entity a request changes from its path. Zod-free: the server runs it on every write.
 */

const words = (segment: string) => segment.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** A route's parameters, as Fastify (`:id`) or OpenAPI (`{id}`) writes them. */
const PARAM = /^(?::(\w+)|\{(\w+)\})$/;
const paramName = (segment: string) => {
  const match = PARAM.exec(segment);
  return match ? (match[1] ?? match[2]) : undefined;
};

/** Path segments under the API's prefix. */
const segmentsOf = (url: string) =>
  url
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .filter(Boolean);

/**
 * The operation id of a route: its method, then each segment of its path under `/api` in camel case, a
 * parameter as `By` and its name: `POST /api/accounts/{id}/userAccess/{userId}` is
 * `postAccountsByIdUserAccessByUserId`.
 */
export const operationIdOf = (method: string, url: string) =>
  method.toLowerCase() +
  segmentsOf(url)
    .map((segment) => {
      const param = paramName(segment);
      return param ? `By${capital(param)}` : words(segment).map(capital).join('');
    })
    .join('');

/**
 * Non-GET operations that write no audit row, and why: they change nothing on anyone's behalf. The route
 * walk (apps/server/test/audit-route-walk.test.ts) holds every other one to exactly one row; within an
 * operation, an agent's routine reports (progress while the status stays, an upload's chunks) write none
 * either (the server's noteAudit `routine`).
 */
export const AUDIT_EXEMPT_OPERATIONS: Readonly<Record<string, string>> = {
  postEventsCreate: "Opens the caller's own live-update connection (bookkeeping, like a session's last use)",
  postEventsByEventIdSubscribe: "Names the channels of the caller's own live-update connection",
  postEventsByEventIdDelete: "Closes the caller's own live-update connection",
  postAgentHeartbeat:
    "An edge server's agent saying it is alive, every 5 seconds, with the health it measured: a report, not a change",
  putAgentQueueItemsByIdLiveBySequence:
    "One live segment of a recording stream (every few seconds): media data arriving, as an upload's bytes; the stream's start and end are the rows of its item's reports",
};

/** The jobs that change data on someone's behalf, as their rows name them (actor: the system). */
export const AUDIT_JOB_OPERATIONS = [
  'job.uploadProxy',
  'job.publishRun',
  'job.clipRender',
  'job.streamSchedule',
] as const;
export type AuditJobOperation = (typeof AUDIT_JOB_OPERATIONS)[number];

/** What an audit row's target may be. */
export const AUDIT_TARGET_TYPES = [
  'account',
  'apiToken',
  'arrivalsFolder',
  'edgeCommand',
  'edgeServer',
  'edl',
  'endpoint',
  'identity',
  'ingestQueueItem',
  'invitation',
  'invite',
  'keyShortcut',
  'liveSegment',
  'media',
  'node',
  'notification',
  'publish',
  'publishButton',
  'publishIcon',
  'publishModule',
  'reseller',
  'service',
  'session',
  'site',
  'siteGroup',
  'subtitle',
  'unprocessedFile',
  'upload',
  'user',
  'webhook',
  'webhookDelivery',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** A collection in a path, and what the id after it names. */
const SEGMENT_TYPES: Readonly<Record<string, AuditTargetType>> = {
  accounts: 'account',
  apiTokens: 'apiToken',
  arrivalsFolders: 'arrivalsFolder',
  commands: 'edgeCommand',
  edgeServers: 'edgeServer',
  edls: 'edl',
  endpoints: 'endpoint',
  identities: 'identity',
  ingestQueueItems: 'ingestQueueItem',
  invitations: 'invitation',
  invites: 'invite',
  keyshortcuts: 'keyShortcut',
  live: 'liveSegment',
  media: 'media',
  nodes: 'node',
  notifications: 'notification',
  publishButtons: 'publishButton',
  publishes: 'publish',
  publishIcons: 'publishIcon',
  publishModules: 'publishModule',
  queueItems: 'ingestQueueItem',
  resellers: 'reseller',
  services: 'service',
  sessions: 'session',
  siteGroups: 'siteGroup',
  sites: 'site',
  subtitles: 'subtitle',
  unprocessedFiles: 'unprocessedFile',
  uploads: 'upload',
  userAccess: 'user',
  users: 'user',
  webhookDeliveries: 'webhookDelivery',
  webhooks: 'webhook',
};

/** Parameters that name an entity of their own, wherever they stand. */
const PARAM_TYPES: Readonly<Record<string, AuditTargetType>> = {
  userId: 'user',
  tokenId: 'apiToken',
  inviteId: 'invite',
  sessionId: 'session',
  notificationId: 'notification',
  moduleId: 'publishModule',
  uploadId: 'upload',
};

/** Parameters that are no entity's id; `token` and `secret` are secrets and never kept. */
const NOT_IDS = new Set(['action', 'type', 'token', 'secret']);

/** An entity a path names: its type, and its id (null when the path does not say it, or it is a secret). */
export type AuditPlace = { type: AuditTargetType; id: string | null };

export type AuditRoute = {
  /** The entities the path names, outermost first (`/accounts/1/invites/2`: the account, then the invite). */
  places: AuditPlace[];
  /**
   * What a POST or PUT to a collection makes (`POST /api/accounts/{id}/invites`: an invite); its id is in
   * the answer.
   */
  creates: AuditTargetType | null;
  /** The path is the caller's own (`/api/me/...`): the user concerned is the caller. */
  own: boolean;
};

/**
 * The entities a request's path names: each collection segment followed by a parameter (`/users/{id}`), a
 * parameter with a type of its own (`{userId}`), and the collection a POST or PUT ends on. `params` holds
 * the request's values; a parameter that is not an id (an action, a secret) names nothing.
 */
export const auditRouteOf = (method: string, url: string, params: Readonly<Record<string, unknown>>) => {
  const segments = segmentsOf(url);
  const places: AuditPlace[] = [];
  let creates: AuditTargetType | null = null;
  segments.forEach((segment, index) => {
    const name = paramName(segment);
    if (name === undefined) {
      const type = SEGMENT_TYPES[segment];
      if (type && index === segments.length - 1 && (method === 'POST' || method === 'PUT')) creates = type;
      return;
    }
    if (NOT_IDS.has(name)) return;
    const before = segments[index - 1];
    const type = PARAM_TYPES[name] ?? (before === undefined ? undefined : SEGMENT_TYPES[before]);
    if (!type) return;
    const value = params[name];
    places.push({ type, id: typeof value === 'string' || typeof value === 'number' ? String(value) : null });
  });
  return { places, creates, own: segments[0] === 'me' } satisfies AuditRoute;
};
