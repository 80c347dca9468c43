import { CHANNELS } from '@media/contract';
import type { AppContext } from '../../platform/context.ts';

/** Every list an edge server appears in: its owner's, its site's and the cloud's. */
export const edgeServerChannels = (edge: { userId: number; siteId: number | null }) => [
  CHANNELS.edgeServers('user', edge.userId),
  ...(edge.siteId != null ? [CHANNELS.edgeServers('site', edge.siteId)] : []),
  CHANNELS.edgeServers('cloud'),
];

/** Publishes a write to every list the edge server, its services, endpoints, accounts and folders show in. */
export const publishEdgeWrite = async (
  ctx: AppContext,
  edge: { id: number; userId: number; siteId: number | null },
  change: {
    serviceIds?: number[];
    endpointIds?: number[];
    /** Accounts whose endpoint lists changed. */
    accountIds?: (number | null)[];
    /** Arrivals folders whose endpoint count changed, by account. */
    folders?: { accountId: number | null; id: number | null }[];
    previousSiteId?: number | null;
  } = {},
) => {
  const channels = new Set(edgeServerChannels(edge));
  if (change.previousSiteId != null) channels.add(CHANNELS.edgeServers('site', change.previousSiteId));
  for (const channel of channels) await ctx.publish(channel, [edge.id]);
  if (change.serviceIds?.length) await ctx.publish(CHANNELS.edgeServices(edge.id), change.serviceIds);
  if (change.endpointIds?.length) {
    await ctx.publish(CHANNELS.endpoints(edge.id), change.endpointIds);
    for (const accountId of new Set(change.accountIds ?? []))
      if (accountId != null) await ctx.publish(CHANNELS.accountEndpoints(accountId), change.endpointIds);
  }
  const foldersByAccount = new Map<number, number[]>();
  for (const folder of change.folders ?? [])
    if (folder.accountId != null && folder.id != null)
      foldersByAccount.set(folder.accountId, [...(foldersByAccount.get(folder.accountId) ?? []), folder.id]);
  for (const [accountId, ids] of foldersByAccount)
    await ctx.publish(CHANNELS.arrivalsFolders(accountId), [...new Set(ids)]);
};
