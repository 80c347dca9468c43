import { EVENT_IDLE_MINUTES, type LiveUpdate, MSG_EVENT_EXPIRED } from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { randomToken } from '../../platform/crypto.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import { canReadChannel } from '../access/service.ts';
import { liveEventCacheOf, subscriptionsChannel } from './event-cache.ts';
import * as repo from './repo.ts';

const IDLE_MS = EVENT_IDLE_MINUTES * 60_000;
/** Changes are kept this long; an event id that has been idle longer has expired anyway. */
const CHANGE_RETENTION_MS = 2 * IDLE_MS;
const BATCH = 1000;
/**
 * A long-poll marks its event id as seen when it was last marked longer ago than this (well inside the
 * idle limit, a poll lasting 25 s), so polling is not a write each time.
 */
const TOUCH_EVERY_MS = 60_000;
/** Idle event ids and old changes are removed at most this often per instance, not on every page load. */
const PRUNE_EVERY_MS = 60_000;
const lastPruned = new WeakMap<AppContext['db'], number>();

const expired = () => new AppError('expired', MSG_EVENT_EXPIRED, { status: 410 });

/** The caller's live event, or 410 when unknown, someone else's, or idle for 5 minutes. */
const checkEvent = async <T extends { userId: number; lastSeenAt: Date }>(
  ctx: AppContext,
  actor: Actor,
  eventId: string,
  event: T | undefined,
) => {
  if (!event || event.userId !== actor.userId) throw expired();
  if (Date.now() - event.lastSeenAt.getTime() > IDLE_MS) {
    await repo.deleteEvent(ctx.db, eventId);
    throw expired();
  }
  return event;
};

const requireEvent = async (ctx: AppContext, actor: Actor, eventId: string) =>
  checkEvent(ctx, actor, eventId, await repo.findEvent(ctx.db, eventId));

/** Removes idle event ids and old changes in the background, once a minute at most; no request waits. */
const pruneNowAndThen = (ctx: AppContext) => {
  const now = Date.now();
  if (now - (lastPruned.get(ctx.db) ?? 0) < PRUNE_EVERY_MS) return;
  lastPruned.set(ctx.db, now);
  repo
    .pruneIdle(ctx.db, new Date(now - IDLE_MS), new Date(now - CHANGE_RETENTION_MS))
    .catch((error: unknown) => ctx.log.warn({ err: error }, 'removing idle live-update event ids failed'));
};

export const createEvent = async (options: { ctx: AppContext; actor: Actor }) => {
  const { ctx, actor } = options;
  pruneNowAndThen(ctx);
  const eventId = randomToken(18);
  await repo.insertEvent(ctx.db, {
    id: eventId,
    userId: actor.userId,
    cursor: await repo.latestChangeId(ctx.db),
  });
  return { eventId };
};

export const subscribe = async (options: {
  ctx: AppContext;
  actor: Actor;
  eventId: string;
  channels: string[];
}) => {
  const { ctx, actor } = options;
  const event = await requireEvent(ctx, actor, options.eventId);
  const channels = [...new Set(options.channels)];
  for (const channel of channels) {
    if (!(await canReadChannel(ctx.db, actor, channel)))
      throw forbidden(`You may not receive updates on ${channel}`);
  }
  await ctx.db.transaction(async (tx) => {
    await repo.insertSubscriptions(tx, options.eventId, channels);
    await repo.touchEvent(tx, options.eventId);
  });
  // Wakes a long-poll of this event id that is already waiting, on whichever instance it waits.
  const announced = await ctx.publish(subscriptionsChannel(options.eventId), []);
  // The page's next poll here reads nothing: the channels as they are after the announcement (a subscribe
  // missing from them announces itself later, and the copy gives way to it).
  liveEventCacheOf(ctx.live.recent).set(options.eventId, {
    userId: event.userId,
    cursor: Number(event.cursor),
    lastSeenAt: new Date(),
    channels: await repo.findSubscriptions(ctx.db, options.eventId),
    knownUpTo: announced,
  });
};

/**
 * Changes after the cursor on subscribed channels that the actor may still read (rights checked at
 * delivery), from this instance's copy of recent changes when it reaches back far enough, else the database.
 */
const pendingUpdates = async (
  ctx: AppContext,
  actor: Actor,
  cursor: number,
  subscribed: ReadonlySet<string>,
  internal: { channel: string; knownUpTo: number },
) => {
  const fromMemory = ctx.live.recent.since(cursor, subscribed);
  const changes = fromMemory
    ? fromMemory.changes
    : await repo.findChangesAfter(ctx.db, cursor, [...subscribed], BATCH);
  const highest = fromMemory ? fromMemory.highest : Number(changes.at(-1)?.id ?? cursor);
  const readable = new Map<string, boolean>();
  const updates: LiveUpdate[] = [];
  let subscriptionsChanged = false;
  for (const change of changes) {
    if (change.channel === internal.channel) {
      // Announced before the channels were read: they are in them already.
      if (change.id > internal.knownUpTo) subscriptionsChanged = true;
      continue;
    }
    if (!readable.has(change.channel))
      readable.set(change.channel, await canReadChannel(ctx.db, actor, change.channel));
    if (readable.get(change.channel)) {
      updates.push({
        channel: change.channel,
        timestamp: change.createdAt.getTime(),
        data: { modified: change.modified },
      });
    }
  }
  return { updates, highest, subscriptionsChanged };
};

/**
 * Waits up to the long-poll time for changes on the subscribed channels; answers them, or an empty list.
 * Every instance reads each change once and wakes its own pollers, so any instance may serve any poll.
 */
export const longPoll = async (options: {
  ctx: AppContext;
  actor: Actor;
  eventId: string;
  aborted: AbortSignal;
}) => {
  const { ctx, actor, eventId } = options;
  const cache = liveEventCacheOf(ctx.live.recent);
  // A poll again reads nothing (LiveEventCache). An event last used here within the idle limit less a touch
  // interval cannot have expired: its time of use in the database is that or later.
  const cached = cache.get(eventId, IDLE_MS - TOUCH_EVERY_MS);
  // Every change this instance has read was committed before the channels are read below.
  let channelsKnownUpTo = cached?.knownUpTo ?? ctx.live.recent.highestRead();
  const event = await checkEvent(
    ctx,
    actor,
    eventId,
    cached ?? (await repo.findEventWithChannels(ctx.db, eventId)),
  );
  if (!cached) cache.set(eventId, { ...event, cursor: Number(event.cursor), knownUpTo: channelsKnownUpTo });
  // Written with the cursors, not awaited; the cursor write of an answer with changes marks it too.
  if (Date.now() - event.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    ctx.live.cursors.touch(eventId);
    cache.touched(eventId);
  }
  // Loaded now and reused when a change arrives, so delivery to many pollers needs no reads per poller.
  await actor.rights();
  const internal = subscriptionsChannel(eventId);
  let subscribed = new Set([...event.channels, internal]);
  let cursor = ctx.live.cursors.startOf(eventId, Number(event.cursor));
  const deadline = Date.now() + ctx.config.longPollSeconds * 1000;
  for (;;) {
    let woken = false;
    let wake: (() => void) | undefined;
    // Listen before reading, so changes read in between are not missed. Waiting holds no connection.
    const stopListening = ctx.live.recent.onChange(subscribed, () => {
      woken = true;
      wake?.();
    });
    try {
      const pending = await pendingUpdates(ctx, actor, cursor, subscribed, {
        channel: internal,
        knownUpTo: channelsKnownUpTo,
      });
      if (pending.subscriptionsChanged) {
        // Channels were added while this poll waited: look again from the same cursor with all of them.
        channelsKnownUpTo = ctx.live.recent.highestRead();
        cache.delete(eventId);
        const reloaded = new Set([...(await repo.findSubscriptions(ctx.db, eventId)), internal]);
        const added = [...reloaded].some((channel) => !subscribed.has(channel));
        subscribed = reloaded;
        if (added) continue;
      }
      if (pending.updates.length > 0) {
        await ctx.live.cursors.advance(eventId, pending.highest);
        cache.advanced(eventId, pending.highest);
        return pending.updates;
      }
      cursor = pending.highest;
      const remaining = deadline - Date.now();
      if (remaining <= 0 || options.aborted.aborted) break;
      if (!woken) {
        await wait(remaining, options.aborted, (resolve) => {
          wake = resolve;
        });
      }
      if (!woken) break;
    } finally {
      stopListening();
    }
  }
  // Nothing to answer: nothing to store either (the stored cursor is behind only by changes not for this poll).
  ctx.live.cursors.remember(eventId, cursor);
  return [];
};

/** Resolves after `ms`, on abort, or when the registered wake-up is called. */
const wait = (ms: number, aborted: AbortSignal, register?: (wake: () => void) => void) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, ms);
    aborted.addEventListener('abort', done, { once: true });
    register?.(done);
  });

export const deleteEvent = async (options: { ctx: AppContext; actor: Actor; eventId: string }) => {
  const { ctx, eventId } = options;
  await requireEvent(ctx, options.actor, eventId);
  await repo.deleteEvent(ctx.db, eventId);
  liveEventCacheOf(ctx.live.recent).delete(eventId);
  // Other instances forget their copy of it (LiveEventCache), so that a poll there answers 410 too.
  await ctx.publish(subscriptionsChannel(eventId), []);
};
