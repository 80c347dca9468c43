import type { FastifyBaseLogger } from 'fastify';
import type { ResolvedToken } from '../modules/api-tokens/service.ts';
import type { OidcProvider } from '../modules/oidc/provider.ts';
import type { AuthEpoch } from './auth/auth-epoch.ts';
import type { RightsCache } from './auth/rights-cache.ts';
import type { SessionStore } from './auth/sessions.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle, Db } from './db/client.ts';
import type { CsrfGuard } from './http/csrf.ts';
import type { Jobs } from './jobs/jobs.ts';
import type { LiveBus } from './live/bus.ts';
import type { CursorWriter } from './live/cursor-writer.ts';
import type { Publish } from './live/publish.ts';
import type { RecentChanges } from './live/recent-changes.ts';
import type { Mailer, MailOutbox } from './mail.ts';
import type { MediaStorage } from './storage/index.ts';

/** What every module gets: built once at start, shared by all requests. */
export type AppContext = {
  config: Config;
  database: DatabaseHandle;
  db: Db;
  secretKey: string;
  /** How mail leaves (SMTP or .eml files); only the mail job calls it. */
  mailer: Mailer;
  /** Services put their mails here, in the transaction of their change. */
  mail: MailOutbox;
  /** Durable jobs (pg-boss): `send` in the change's transaction, `work` to run a queue. */
  jobs: Jobs;
  /** Media files (proxies, sources, thumbnails, uploads): DATA_DIR or an S3-compatible bucket. */
  storage: MediaStorage;
  log: FastifyBaseLogger;
  /** Live updates between instances. */
  bus: LiveBus;
  /** Announce a committed change on a channel. */
  publish: Publish;
  /** This instance's copy of recent changes, and the batched cursor writes of its long-polls. */
  live: { recent: RecentChanges; cursors: CursorWriter };
  /** Stops the jobs, closes the bus and the database. */
  close: () => Promise<void>;
};

/** The request-path services built by buildApp: sessions, API tokens, rights and the anti-forgery guard. */
export type AppServices = {
  authEpoch: AuthEpoch;
  sessions: SessionStore;
  /** The API token of a bearer request (modules/api-tokens). */
  apiTokens: (token: string) => Promise<ResolvedToken>;
  rights: RightsCache;
  csrf: CsrfGuard;
  /** The company's identity provider, discovered at start (OIDC_ISSUER); undefined when not set up. */
  oidc: OidcProvider | undefined;
};
