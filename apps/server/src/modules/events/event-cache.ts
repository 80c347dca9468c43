import type { RecentChanges, StoredChange } from '../../platform/live/recent-changes.ts';

/** Internal channel announcing that an event id's subscriptions changed (or it went); no client may subscribe to it. */
export const subscriptionsChannel = (eventId: string) => `internal/events/${eventId}`;
const INTERNAL_PREFIX = subscriptionsChannel('');

export type CachedEvent = {
  userId: number;
  cursor: number;
  lastSeenAt: Date;
  channels: string[];
  /** The newest change this instance had read before the event was read: announcements after it make it stale. */
  knownUpTo: number;
};

/** Event ids kept per instance: one per open page; the oldest read goes first. */
const KEPT = 100_000;
/** Announcements are remembered this long: far longer than a read of an event takes. */
const ANNOUNCED_KEEP_MS = 60_000;

/**
 * This instance's copy of the live-update event ids its long-polls read, so that polling again (every page,
 * every 25 s, and again after every change it receives) reads nothing from the database: with 20,000 pages
 * that read was most of the server's work. The database stays the truth: an entry is used only while no
 * change of its subscriptions (or its removal) was announced after it was read, on any instance, and only
 * while it was seen recently by this instance (the idle limit is decided on the database's time of use).
 */
export class LiveEventCache {
  private readonly entries = new Map<string, CachedEvent>();
  /** The id of the latest announcement per event id, with when it came. */
  private readonly announced = new Map<string, { id: number; at: number }>();

  constructor(recent: RecentChanges) {
    recent.observe((change) => this.noticed(change));
  }

  private noticed(change: StoredChange) {
    if (!change.channel.startsWith(INTERNAL_PREFIX)) return;
    const eventId = change.channel.slice(INTERNAL_PREFIX.length);
    // An entry this instance made after the announcement (its own subscribe) stays.
    if ((this.entries.get(eventId)?.knownUpTo ?? 0) < change.id) this.entries.delete(eventId);
    this.announced.delete(eventId);
    const now = Date.now();
    this.announced.set(eventId, { id: change.id, at: now });
    for (const [id, entry] of this.announced) {
      if (now - entry.at < ANNOUNCED_KEEP_MS) break;
      this.announced.delete(id);
    }
  }

  private current(eventId: string, knownUpTo: number) {
    return (this.announced.get(eventId)?.id ?? 0) <= knownUpTo;
  }

  /** The event as last read here, if nothing was announced for it since and it was seen within `freshMs`. */
  get(eventId: string, freshMs: number): CachedEvent | undefined {
    const entry = this.entries.get(eventId);
    if (!entry) return undefined;
    if (!this.current(eventId, entry.knownUpTo) || Date.now() - entry.lastSeenAt.getTime() >= freshMs) {
      this.entries.delete(eventId);
      return undefined;
    }
    return entry;
  }

  /** Keeps an event read from the database, unless an announcement came after the read began. */
  set(eventId: string, event: CachedEvent) {
    if (!this.current(eventId, event.knownUpTo)) return;
    this.entries.delete(eventId);
    this.entries.set(eventId, event);
    if (this.entries.size > KEPT) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  /** The stored cursor moved (an answer with changes), and with it the time of use. */
  advanced(eventId: string, cursor: number) {
    const entry = this.entries.get(eventId);
    if (entry) {
      entry.cursor = Math.max(entry.cursor, cursor);
      entry.lastSeenAt = new Date();
    }
  }

  /** The time of use was written. */
  touched(eventId: string) {
    const entry = this.entries.get(eventId);
    if (entry) entry.lastSeenAt = new Date();
  }

  delete(eventId: string) {
    this.entries.delete(eventId);
  }
}

const caches = new WeakMap<RecentChanges, LiveEventCache>();

/** The cache of the instance whose changes `recent` reads. */
export const liveEventCacheOf = (recent: RecentChanges) => {
  let cache = caches.get(recent);
  if (!cache) {
    cache = new LiveEventCache(recent);
    caches.set(recent, cache);
  }
  return cache;
};
