import { API_VERSIONS } from '@media/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { loginFailures, sessions } from '../src/modules/auth/tables.ts';
import { keyboardExpansionMaps, keyShortcutSets } from '../src/modules/config/tables.ts';
import { edgeCommands } from '../src/modules/edge/tables.ts';
import { notificationSettings, userNotifications } from '../src/modules/notifications/tables.ts';
import { userIdentities } from '../src/modules/oidc/tables.ts';
import { publishes } from '../src/modules/publishing/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import {
  makeArrivalsFolderRow,
  makeEdgeServerRow,
  makeEndpointRow,
  makeQueueItemRow,
  makeServiceRow,
  makeUnprocessedFileRow,
} from '../src/seed/demo-edge.ts';
import { findRoleByName, grantAccountAccess, makeUser } from '../src/seed/factories.ts';
import { makeMediaRow, makeNodeRow } from '../src/seed/node-factories.ts';
import {
  makeWorld,
  multipartFile,
  type Results,
  type TestApp,
  type TestClient,
  type TestResponse,
} from './harness.ts';
import { buttonBody } from './publishing-world.ts';

/**
 * The world of the audit route walk (audit-route-walk.test.ts): the harness's organisation and, in its
 * account, one of each thing the API changes, so that each non-GET operation has something to act on.
 */
export const AGENT_TOKEN = 'audit-walk-agent-token-0123456789';

export const makeWalkWorld = async (t: TestApp) => {
  const w = await makeWorld(t);
  const { db } = t.ctx;
  const one = <T>(rows: T[]) => rows[0] as T;
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.username, 'admin'));
  const adminId = admin?.id as number;
  const siteManagerId = one(
    await db.select({ id: users.id }).from(users).where(eq(users.username, w.siteManager.user.username)),
  ).id;
  const editorRoleId = (await findRoleByName(db, 'Editor')).id;
  const viewerRoleId = (await findRoleByName(db, 'Viewer')).id;

  // A user the administrator changes, with what the user routes act on.
  const person = await makeUser(db);
  await grantAccountAccess(db, person.id, w.account.id, 'Viewer');
  const personClient = await t.client().signIn(person.username, person.password as string);
  const notification = one(
    await db
      .insert(userNotifications)
      .values({ userId: person.id, type: 'info', message: 'Hello' })
      .returning({ id: userNotifications.id }),
  );
  await db.insert(notificationSettings).values({ userId: adminId, type: 'email' }).onConflictDoNothing();
  const identity = one(
    await db
      .insert(userIdentities)
      .values({ userId: adminId, issuer: 'https://idp.example', subject: 'admin-subject' })
      .returning({ id: userIdentities.id }),
  );
  const personSession = one(
    await db.select({ publicId: sessions.publicId }).from(sessions).where(eq(sessions.userId, person.id)),
  ).publicId;
  await db
    .insert(loginFailures)
    .values({ kind: 'ip', key: '203.0.113.9', failures: 50, lockedUntil: new Date(Date.now() + 3_600_000) });

  // Configuration: a keyboard expansion map to clone, key shortcut sets.
  const keyMap = one(
    await db
      .insert(keyboardExpansionMaps)
      .values({ accountId: w.account.id, name: 'News', expansions: [] })
      .returning({ id: keyboardExpansionMaps.id }),
  );
  const keySet = async (name: string) =>
    one(
      await db
        .insert(keyShortcutSets)
        .values({ name, level: 'account', accountId: w.account.id })
        .returning({ id: keyShortcutSets.id }),
    ).id;
  const keySets = { changed: await keySet('Walk set'), trashed: await keySet('Walk gone') };

  // An edge server of the site, its agent's token known, with a file and a stream service and their endpoints.
  const edge = await makeEdgeServerRow(db, {
    userId: siteManagerId,
    siteId: w.site.id,
    name: 'Walk edge',
    agentTokenHash: sha256(AGENT_TOKEN),
    lastSeenAt: new Date(),
  });
  const fileService = await makeServiceRow(db, { edgeServerId: edge.id, name: 'Walk files' });
  const streamService = await makeServiceRow(db, {
    edgeServerId: edge.id,
    name: 'Walk streams',
    typeId: 'StreamIngestService',
  });
  const folder = await makeArrivalsFolderRow(db, { accountId: w.account.id, name: 'Walk arrivals' });
  const fileEndpoint = await makeEndpointRow(db, {
    serviceId: fileService.id,
    name: 'Walk watch',
    accountId: w.account.id,
    arrivalsFolderId: folder.id,
    options: { path: '/media/in' },
  });
  const spareEndpoint = await makeEndpointRow(db, {
    serviceId: fileService.id,
    name: 'Walk spare',
    accountId: w.account.id,
    options: { path: '/media/spare' },
  });
  const item = (overrides: Partial<Parameters<typeof makeQueueItemRow>[1]> = {}) =>
    makeQueueItemRow(db, {
      edgeServerId: edge.id,
      endpointId: fileEndpoint.id,
      accountId: w.account.id,
      arrivalsFolderId: folder.id,
      ...overrides,
    });
  const items = {
    queued: await item(),
    actionRequired: await item({ status: 'actionRequired' }),
    failed: await item({ status: 'failed' }),
    trashed: await item({ status: 'failed' }),
    batch: await item({ status: 'ingested' }),
    ingesting: await item({ status: 'ingesting' }),
    stream: await item({ status: 'ingesting', isStream: true }),
  };
  const unprocessed = {
    forced: await makeUnprocessedFileRow(db, { endpointId: fileEndpoint.id }),
    trashed: await makeUnprocessedFileRow(db, { endpointId: fileEndpoint.id }),
  };
  const command = one(
    await db
      .insert(edgeCommands)
      .values({ edgeServerId: edge.id, action: 'machineLoad' })
      .returning({ id: edgeCommands.id }),
  );

  // The media tree: a folder with a media file, another to move into.
  await makeNodeRow(db, { accountId: w.account.id, name: 'Walk' });
  await makeNodeRow(db, { accountId: w.account.id, name: 'Elsewhere' });
  const mediaRow = await makeMediaRow(db, { accountId: w.account.id, name: 'Interview', status: 'ready' });
  const mediaNode = await makeNodeRow(db, {
    accountId: w.account.id,
    parentPath: '/Walk',
    name: 'Interview',
    type: 'media',
    mediaId: mediaRow.id,
  });

  // Publishing: a button of the account with published items (a failed one, one handed to the edge server).
  const button = (
    await w.admin.client.post<Results<{ id: number }>>(
      `/api/accounts/${w.account.id}/publishButtons`,
      buttonBody('Walk button'),
    )
  ).body.results.id;
  const publish = async (values: Partial<typeof publishes.$inferInsert>) =>
    one(
      await db
        .insert(publishes)
        .values({
          buttonId: button,
          accountId: w.account.id,
          nodeId: mediaNode.id,
          status: 'failed',
          ...values,
        })
        .returning({ id: publishes.id }),
    ).id;
  const published = {
    failed: await publish({}),
    onEdge: await publish({ status: 'queued', edgeServerId: edge.id }),
  };

  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c03' } })
    .png()
    .toBuffer();
  const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3c0' } })
    .jpeg()
    .toBuffer();

  return {
    ...w,
    adminId,
    siteManagerId,
    editorRoleId,
    viewerRoleId,
    person: { ...person, client: personClient, session: personSession },
    notification: notification.id,
    identity: identity.id,
    keyMap: keyMap.id,
    keySets,
    edge,
    fileService,
    streamService,
    folder,
    fileEndpoint,
    spareEndpoint,
    items,
    unprocessed,
    command: command.id,
    media: mediaRow,
    button,
    published,
    png,
    jpeg,
  };
};
export type WalkWorld = Awaited<ReturnType<typeof makeWalkWorld>>;

/** What each request of the walk may send beyond a JSON body. */
export type Sent = {
  method?: 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
};

export const VERSION = { 'x-api-version': API_VERSIONS.ingest };

/** The agent's call, with its token. */
export const agentCall = (t: TestApp, sent: Sent) =>
  t.client().request({
    method: sent.method ?? 'POST',
    url: sent.url,
    body: sent.body,
    headers: { authorization: `Bearer ${AGENT_TOKEN}`, ...VERSION, ...sent.headers },
    csrf: false,
  });

export const call = (client: TestClient, sent: Sent) =>
  client.request({
    method: sent.method ?? 'POST',
    url: sent.url,
    body: sent.body ?? (sent.method === 'DELETE' ? undefined : {}),
    headers: { ...VERSION, ...sent.headers },
  });

/** One successful request of the walk: the operation it is, and how it is made (ids made earlier in `made`). */
export type WalkStep = {
  op: string;
  /** What the request needs first (its own requests write their own rows, not counted). */
  prepare?: (t: TestApp, w: WalkWorld, made: Made) => Promise<void>;
  /** The one request of the operation. */
  run: (t: TestApp, w: WalkWorld, made: Made) => Promise<TestResponse>;
};
export type Made = Record<string, number | string | TestClient>;

export const idOf = (answer: TestResponse) => (answer.body as Results<{ id: number }>).results.id;
/** Keeps the id of what the answer made under `name`. */
export const keep = (made: Made, name: string, answer: TestResponse) => {
  made[name] = idOf(answer);
  return answer;
};

/** A file sent as a browser's upload form does, by the administrator. */
export const multipart = (
  w: WalkWorld,
  url: string,
  file: { fileName: string; content: string | Buffer; type?: string },
) => {
  const { body, headers } = multipartFile(file);
  return call(w.admin.client, { url, body, headers });
};
