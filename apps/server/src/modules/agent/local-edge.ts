import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_EDGE_ADVANCED_OPTIONS } from '@media/contract';
import { EdgeAgent } from '@media/edge-agent';
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import { DEMO_LOCAL_EDGE_TARGET } from '../../seed/demo-edge.ts';
import { arrivalsFolders } from '../arrivals/tables.ts';
import { installation } from '../config/tables.ts';
import { edgeServers, endpoints, services } from '../edge/tables.ts';
import { accounts } from '../organisation/tables.ts';
import { users } from '../users/tables.ts';

const LOCAL_EDGE_KEY = 'local_edge_server_id';
export const LOCAL_EDGE_NAME = 'Local edge server';
export const LOCAL_ENDPOINT_NAME = 'Local arrivals folder';

/** Where the local edge reads from: DATA_DIR/edge, with one watched folder made at first start. */
export const localEdgeFolders = (dataDir: string) => {
  const root = path.join(dataDir, 'edge');
  return { root, arrivals: path.join(root, 'arrivals'), state: path.join(dataDir, 'edge-state') };
};

/**
 * DESIGN.md: `npm start` runs one edge agent in-process so one machine shows the whole flow. The
 * first start makes its edge server (owned by `admin`), a file ingest service and a local folder
 * endpoint watching DATA_DIR/edge/arrivals; every start gives it a new token, known only in memory.
 */
export const ensureLocalEdge = async (ctx: AppContext) => {
  const folders = localEdgeFolders(ctx.config.dataDir);
  await fs.promises.mkdir(folders.arrivals, { recursive: true });
  const token = randomToken(32);
  const edgeServerId = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727003)`);
    const [known] = await tx.select().from(installation).where(eq(installation.key, LOCAL_EDGE_KEY));
    const [existing] = known
      ? await tx
          .select({ id: edgeServers.id })
          .from(edgeServers)
          .where(eq(edgeServers.id, Number(known.value)))
      : [];
    if (existing) {
      await tx
        .update(edgeServers)
        .set({ agentTokenHash: sha256(token) })
        .where(eq(edgeServers.id, existing.id));
      return existing.id;
    }
    const [admin] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.username})`, 'admin'));
    if (!admin) return undefined;
    const [edge] = await tx
      .insert(edgeServers)
      .values({
        name: LOCAL_EDGE_NAME,
        userId: admin.id,
        advancedOptions: DEFAULT_EDGE_ADVANCED_OPTIONS,
        agentTokenHash: sha256(token),
      })
      .returning({ id: edgeServers.id });
    if (!edge) throw new Error('The local edge server was not created');
    const [service] = await tx
      .insert(services)
      .values({
        edgeServerId: edge.id,
        name: 'Local files',
        typeId: 'FileIngestService',
        serviceGroupId: 0,
        options: {},
      })
      .returning({ id: services.id });
    if (!service) throw new Error('The local edge service was not created');
    await tx.update(services).set({ serviceGroupId: service.id }).where(eq(services.id, service.id));
    // With the demo data, the folder feeds a demo account at once; otherwise a person assigns it.
    const [demoFolder] = ctx.config.seedDemo
      ? await tx
          .select({ id: arrivalsFolders.id, accountId: arrivalsFolders.accountId })
          .from(arrivalsFolders)
          .innerJoin(accounts, eq(accounts.id, arrivalsFolders.accountId))
          .where(
            and(
              eq(accounts.name, DEMO_LOCAL_EDGE_TARGET.account),
              eq(arrivalsFolders.name, DEMO_LOCAL_EDGE_TARGET.arrivalsFolder),
            ),
          )
          .limit(1)
      : [];
    await tx.insert(endpoints).values({
      serviceId: service.id,
      name: LOCAL_ENDPOINT_NAME,
      typeId: 'LocalFolderEndpoint',
      options: { path: folders.arrivals },
      online: true,
      accountId: demoFolder?.accountId ?? null,
      arrivalsFolderId: demoFolder?.id ?? null,
    });
    await tx
      .insert(installation)
      .values({ key: LOCAL_EDGE_KEY, value: String(edge.id) })
      .onConflictDoUpdate({ target: installation.key, set: { value: String(edge.id) } });
    return edge.id;
  });
  if (edgeServerId === undefined) return undefined;
  // Where dropped files go, for the start message.
  const [target] = await ctx.db
    .select({ account: accounts.name, folder: arrivalsFolders.name })
    .from(endpoints)
    .innerJoin(services, eq(services.id, endpoints.serviceId))
    .innerJoin(arrivalsFolders, eq(arrivalsFolders.id, endpoints.arrivalsFolderId))
    .innerJoin(accounts, eq(accounts.id, arrivalsFolders.accountId))
    .where(and(eq(services.edgeServerId, edgeServerId), eq(endpoints.name, LOCAL_ENDPOINT_NAME)))
    .limit(1);
  return { edgeServerId, token, folders, target };
};

/** Starts the in-process agent against this server; answers a stop function. */
export const startLocalEdge = async (ctx: AppContext, cloudUrl: string) => {
  const local = await ensureLocalEdge(ctx);
  if (!local) return undefined;
  const agent = new EdgeAgent({
    cloudUrl,
    token: local.token,
    allowedRoots: [local.folders.root],
    stateDir: local.folders.state,
    log: (level, message, details) =>
      ctx.log[level]({ ...details, edgeServerId: local.edgeServerId }, message),
  });
  agent.start();
  ctx.log.info({ folder: local.folders.arrivals }, 'local edge agent watching');
  return { ...local, stop: () => agent.stop() };
};
