import type { EndpointReport } from '@media/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.ts';
import { publishEdgeWrite } from './live.ts';
import { edgeServers, endpoints, services } from './tables.ts';

/**
 * Stores what an agent measured of its endpoints (DESIGN: endpoint health is reported, not assumed): online,
 * status and message, and when. Only that edge server's endpoints are touched; a person's `disabled` stands
 * (the agent reports those as disabled anyway); `pendingSettings` ends once the agent reports under the online
 * switch people asked for, working or not (its status says which). Nothing is written or announced when nothing changed, since heartbeats are frequent.
 */
export const recordEndpointReports = async (
  ctx: AppContext,
  edgeServerId: number,
  reports: EndpointReport[],
) => {
  if (!reports.length) return;
  const rows = await ctx.db
    .select({
      id: endpoints.id,
      status: endpoints.status,
      statusMessage: endpoints.statusMessage,
      online: endpoints.online,
      pendingSettings: endpoints.pendingSettings,
      reportedAt: endpoints.statusReportedAt,
      accountId: endpoints.accountId,
    })
    .from(endpoints)
    .innerJoin(services, eq(services.id, endpoints.serviceId))
    .where(
      and(
        eq(services.edgeServerId, edgeServerId),
        inArray(
          endpoints.id,
          reports.map((report) => report.endpointId),
        ),
      ),
    );
  const byId = new Map(reports.map((report) => [report.endpointId, report]));
  const changed: typeof rows = [];
  await ctx.db.transaction(async (tx) => {
    for (const row of rows) {
      const report = byId.get(row.id);
      if (!report) continue;
      const status = row.status === 'disabled' ? 'disabled' : report.status;
      const pendingSettings = row.pendingSettings && (report.switchedOn ?? report.online) !== row.online;
      const same =
        row.reportedAt != null &&
        status === row.status &&
        report.message === row.statusMessage &&
        pendingSettings === row.pendingSettings;
      if (same) continue;
      await tx
        .update(endpoints)
        .set({ status, statusMessage: report.message, pendingSettings, statusReportedAt: sql`now()` })
        .where(eq(endpoints.id, row.id));
      changed.push(row);
    }
  });
  if (!changed.length) return;
  const [edge] = await ctx.db
    .select({ id: edgeServers.id, userId: edgeServers.userId, siteId: edgeServers.siteId })
    .from(edgeServers)
    .where(eq(edgeServers.id, edgeServerId));
  if (edge)
    await publishEdgeWrite(ctx, edge, {
      endpointIds: changed.map((row) => row.id),
      accountIds: changed.map((row) => row.accountId),
    });
};

/**
 * Whether an endpoint of this edge server is recording now, as its agent reports it with a stream item's
 * progress (spec2 §4: monitoring needs `recording`). Written and announced only when it changes.
 */
export const recordEndpointRecording = async (
  ctx: AppContext,
  edge: { id: number; userId: number; siteId: number | null },
  endpointId: number,
  recording: boolean,
) => {
  const changed = await ctx.db
    .update(endpoints)
    .set({ recording })
    .where(
      and(
        eq(endpoints.id, endpointId),
        sql`${endpoints.recording} <> ${recording}`,
        inArray(
          endpoints.serviceId,
          ctx.db.select({ id: services.id }).from(services).where(eq(services.edgeServerId, edge.id)),
        ),
      ),
    )
    .returning({ id: endpoints.id, accountId: endpoints.accountId });
  if (changed.length)
    await publishEdgeWrite(ctx, edge, {
      endpointIds: changed.map((row) => row.id),
      accountIds: changed.map((row) => row.accountId),
    });
};
