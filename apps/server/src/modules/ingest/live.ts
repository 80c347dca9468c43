import { CHANNELS } from '@media/contract';
import type { AppContext } from '../../platform/context.ts';

/** Tells the queues that show these items (their edge server's, their account's) that they changed. */
export const publishItemChanges = async (
  ctx: AppContext,
  items: { id: number; edgeServerId: number; accountId: number | null }[],
) => {
  const byChannel = new Map<string, number[]>();
  const add = (channel: string, id: number) =>
    byChannel.set(channel, [...(byChannel.get(channel) ?? []), id]);
  for (const item of items) {
    add(CHANNELS.edgeIngestQueue(item.edgeServerId), item.id);
    if (item.accountId != null) add(CHANNELS.accountIngestQueue(item.accountId), item.id);
  }
  for (const [channel, ids] of byChannel) await ctx.publish(channel, ids);
};
