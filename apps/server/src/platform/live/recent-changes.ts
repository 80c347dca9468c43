import { asc, gt, sql } from 'drizzle-orm';
import { liveChanges } from '../../modules/events/tables.ts';
import type { Db } from '../db/client.ts';
import type { LiveBus } from './bus.ts';

export type StoredChange = typeof liveChanges.$inferSelect;

/**
 * How many recent changes an instance keeps in memory for its long-pollers (a few MB). Every page's
 * subscribe is a change too (its own internal channel): 20,000 pages opening must not push the pollers'
 * cursors below the kept changes, which would send each of their polls to the database.
 */
const KEEP = 100_000;

/** The first index in `changes` (ascending ids) whose id is above `cursor`. */
const firstAfter = (changes: StoredChange[], cursor: number) => {
  let low = 0;
  let high = changes.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((changes[middle]?.id ?? 0) <= cursor) low = middle + 1;
    else high = middle;
  }
  return low;
};

/**
 * This instance's copy of the latest changes. A notice from the bus makes it read the new changes from the
 * database once, however many long-pollers wait, and then wake the pollers of the channels that changed;
 * each poller filters in memory. The database stays the truth: a poller whose cursor is older than this
 * copy reads the database instead.
 */
export class RecentChanges {
  private changes: StoredChange[] = [];
  /** The same changes by channel (ascending ids): a poll looks at its own channels' changes only. */
  private readonly byChannel = new Map<string, StoredChange[]>();
  /** Every change with an id above this one is in `changes` (once started). */
  private floor = Number.POSITIVE_INFINITY;
  private highest = 0;
  private loading: Promise<void> | undefined;
  private again = false;
  private closed = false;
  /** Waiting pollers by channel, so that a change wakes only those who wait for it. */
  private readonly listeners = new Map<string, Set<() => void>>();
  /** Channels of the changes read since the last wake-up. */
  private changed = new Set<string>();
  /** The link to the other instances was replaced: anything may have been missed, everybody looks again. */
  private wakeEveryone = false;
  private readonly unsubscribe: () => void;
  /** Told of every change as it is read, in order (e.g. the event cache, of changed subscriptions). */
  private readonly observers = new Set<(change: StoredChange) => void>();

  constructor(
    private readonly db: Db,
    bus: LiveBus,
  ) {
    this.unsubscribe = bus.subscribe((notice) => {
      if ('reset' in notice) this.wakeEveryone = true;
      // A failed read (a database blip) leaves `highest` where it was; the next notice reads again.
      if ('reset' in notice || notice.id > this.highest) this.load().catch(() => undefined);
    });
  }

  async start() {
    const [row] = await this.db
      .select({ id: sql<number>`coalesce(max(${liveChanges.id}), 0)` })
      .from(liveChanges);
    this.highest = Number(row?.id ?? 0);
    this.floor = this.highest;
  }

  /** Reads what is new, one read at a time; notices arriving meanwhile cause one more read. */
  private load(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.again = false;
        const rows = await this.db
          .select()
          .from(liveChanges)
          .where(gt(liveChanges.id, this.highest))
          .orderBy(asc(liveChanges.id));
        if (rows.length > 0) {
          const read = rows.map((r) => ({ ...r, id: Number(r.id) }));
          this.changes.push(...read);
          for (const change of read) {
            this.changed.add(change.channel);
            const ofChannel = this.byChannel.get(change.channel);
            if (ofChannel) ofChannel.push(change);
            else this.byChannel.set(change.channel, [change]);
            for (const observer of this.observers) observer(change);
          }
          this.highest = Number(rows.at(-1)?.id ?? this.highest);
          if (this.changes.length > KEEP) {
            const dropped = this.changes.splice(0, this.changes.length - KEEP);
            // The oldest of the whole are the oldest of their channels.
            for (const change of dropped) {
              const ofChannel = this.byChannel.get(change.channel);
              ofChannel?.shift();
              if (ofChannel?.length === 0) this.byChannel.delete(change.channel);
            }
            this.floor = Number(dropped.at(-1)?.id ?? this.floor);
          }
        }
      } while (this.again && !this.closed);
    })().finally(() => {
      this.loading = undefined;
    });
    return this.loading.then(() => this.wake());
  }

  /** Wakes the pollers of the channels read since the last wake-up (all of them after a reset), each once. */
  private wake() {
    const everyone = this.wakeEveryone;
    const channels = this.changed;
    this.wakeEveryone = false;
    this.changed = new Set();
    const woken = new Set<() => void>();
    const add = (listeners: Set<() => void> | undefined) => {
      for (const listener of listeners ?? []) woken.add(listener);
    };
    if (everyone) for (const listeners of this.listeners.values()) add(listeners);
    else for (const channel of channels) add(this.listeners.get(channel));
    for (const listener of woken) listener();
  }

  /** The newest change this copy has read: it and every older one were committed before now. */
  highestRead() {
    return this.highest;
  }

  /** Changes after the cursor on these channels, or undefined when this copy does not reach back that far. */
  since(
    cursor: number,
    channels: ReadonlySet<string>,
  ): { changes: StoredChange[]; highest: number } | undefined {
    if (cursor < this.floor) return undefined;
    const changes: StoredChange[] = [];
    let channelsWithChanges = 0;
    for (const channel of channels) {
      const ofChannel = this.byChannel.get(channel);
      if (!ofChannel) continue;
      const first = firstAfter(ofChannel, cursor);
      if (first < ofChannel.length) channelsWithChanges += 1;
      for (let i = first; i < ofChannel.length; i++) changes.push(ofChannel[i] as StoredChange);
    }
    if (channelsWithChanges > 1) changes.sort((a, b) => a.id - b.id);
    return { changes, highest: Math.max(cursor, this.highest) };
  }

  /**
   * Called after changes on one of these channels have been read (or after the link to the other
   * instances was replaced). A change costs the pollers of its channels, not every poller.
   */
  onChange(channels: Iterable<string>, listener: () => void) {
    const names = [...channels];
    for (const channel of names) {
      let listeners = this.listeners.get(channel);
      if (!listeners) {
        listeners = new Set();
        this.listeners.set(channel, listeners);
      }
      listeners.add(listener);
    }
    return () => {
      for (const channel of names) {
        const listeners = this.listeners.get(channel);
        listeners?.delete(listener);
        if (listeners?.size === 0) this.listeners.delete(channel);
      }
    };
  }

  /** Calls `observer` with every change read from now on; answers how to stop. */
  observe(observer: (change: StoredChange) => void) {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** How many pollers wait on how many channels (for tests and benchmarks). */
  waiting() {
    const pollers = new Set<() => void>();
    for (const listeners of this.listeners.values()) for (const listener of listeners) pollers.add(listener);
    return { pollers: pollers.size, channels: this.listeners.size };
  }

  /** Stops listening and waits for a read under way, so nothing touches the database once it is closed. */
  async close() {
    this.closed = true;
    this.unsubscribe();
    await this.loading?.catch(() => undefined);
  }
}
