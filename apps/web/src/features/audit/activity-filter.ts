import { AUDIT_TARGET_TYPES, type AuditEntry, type AuditTargetType, parsePickerDate } from '@media/contract';

/**
 * The Activity page's filters as they stand in its address (so a filtered view can be shared and reloaded):
 * actor, operation, target type and id, account, and a period of days (yyyy-MM-dd, both days included).
 */
export type ActivityFilter = {
  actor?: string;
  operation?: string;
  targetType?: AuditTargetType;
  targetId?: string;
  accountId?: number;
  from?: string;
  to?: string;
};

const TEXT_KEYS = ['actor', 'operation', 'targetId', 'from', 'to'] as const;

export const filterFromSearch = (search: URLSearchParams): ActivityFilter => {
  const filter: ActivityFilter = {};
  for (const key of TEXT_KEYS) {
    const value = search.get(key)?.trim();
    if (value) filter[key] = value;
  }
  const type = search.get('targetType');
  if (type && (AUDIT_TARGET_TYPES as readonly string[]).includes(type))
    filter.targetType = type as AuditTargetType;
  const account = Number(search.get('accountId'));
  if (Number.isInteger(account) && account > 0) filter.accountId = account;
  return filter;
};

/** The filter as the page's address holds it. */
export const searchOfFilter = (filter: ActivityFilter) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(filter))
    if (value !== undefined && value !== '') search.set(key, String(value));
  return search;
};

const nextDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1);

/**
 * The filter as GET /api/auditLog takes it: the period's days in local time, from the start of the first to
 * the end of the last; a target id only with its type (the server refuses it alone).
 */
export const auditQueryOf = (filter: ActivityFilter) => {
  const query = new URLSearchParams();
  if (filter.actor) query.set('actor', filter.actor);
  if (filter.operation) query.set('operation', filter.operation);
  if (filter.targetType) {
    query.set('targetType', filter.targetType);
    if (filter.targetId) query.set('targetId', filter.targetId);
  }
  if (filter.accountId) query.set('accountId', String(filter.accountId));
  const from = filter.from ? parsePickerDate(filter.from) : undefined;
  const to = filter.to ? parsePickerDate(filter.to) : undefined;
  if (from) query.set('from', from.toISOString());
  if (to) query.set('to', nextDay(to).toISOString());
  return query;
};

/** A period whose last day comes before its first: said under the field, not sent. */
export const periodProblem = (filter: ActivityFilter) => {
  const from = filter.from ? parsePickerDate(filter.from) : undefined;
  const to = filter.to ? parsePickerDate(filter.to) : undefined;
  return from && to && to < from ? 'The last day comes before the first' : undefined;
};

/** Who acted, in words: the user or edge server by name, or what acted without one. */
export const actorLabel = (entry: Pick<AuditEntry, 'actorType' | 'actorName'>) => {
  if (entry.actorType === 'system') return 'System';
  if (entry.actorType === 'anonymous') return 'Not signed in';
  const name = entry.actorName ?? '(gone)';
  return entry.actorType === 'user' ? name : `${name} (${entry.actorType})`;
};

export const VIA_LABELS: Record<NonNullable<AuditEntry['via']>, string> = {
  session: 'Browser session',
  token: 'API token',
  agent: "Edge server's agent",
  job: 'Server job',
};

/** 'account 12', 'user 7', or the type alone when the id is not known. */
export const targetLabel = (entry: Pick<AuditEntry, 'targetType' | 'targetId'>) =>
  entry.targetType ? `${entry.targetType}${entry.targetId ? ` ${entry.targetId}` : ''}` : '';
