import os from 'node:os';
import path from 'node:path';
import {
  AUDIT_RETENTION_DAYS_DEFAULT,
  OIDC_BUTTON_TEXT_DEFAULT,
  REAUTH_WINDOW_MINUTES,
  WEBHOOK_LINK_HOURS_DEFAULT,
} from '@media/contract';
import { z } from 'zod';

const flag = (fallback: boolean) =>
  z
    .enum(['0', '1', 'true', 'false', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : v === '1' || v === 'true'));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  // The built web app; parallel e2e runs each serve their own build.
  WEB_DIST: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  SEED_DEMO: flag(false),
  DEMO_PASSWORD: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  LOCAL_EDGE: flag(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  AGENT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
  LONG_POLL_SECONDS: z.coerce.number().int().min(1).max(60).default(25),
  // A body parsed whole must arrive within this (more if large); a streamed upload may not stall this long.
  REQUEST_BODY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(30),
  UPLOAD_STALL_SECONDS: z.coerce.number().int().min(1).default(60),
  // A stop lets requests under way finish this long, then cuts what is still open (a client that stopped reading).
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(10),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(8 * 60),
  SESSION_ABSOLUTE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(7 * 24 * 60),
  // A change of e-mail, password, second factor or API tokens needs a sign-in this recent (ASVS 7.5.1).
  REAUTH_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(REAUTH_WINDOW_MINUTES * 60),
  TRUST_PROXY: flag(false),
  SMTP_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  MAIL_FROM: z.string().default('Media Cloud <no-reply@localhost>'),
  PUBLIC_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v.replace(/\/$/, '') : undefined)),
  CSRF_COOKIE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('csrftoken'),
  CSRF_HEADER_NAME: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/)
    .default('X-CSRFToken'),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(20 * 1024 ** 3),
  SECRET_KEY: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  STORAGE_URL: z
    .string()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, {
      error: 'must be s3://bucket or s3://bucket/prefix (unset: files under DATA_DIR/media)',
    })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  S3_ENDPOINT: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  S3_REGION: z.string().min(1).default('us-east-1'),
  AWS_ACCESS_KEY_ID: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  AWS_SECRET_ACCESS_KEY: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  // DESIGN "the way out": loopback reachable by publishing (tests, single-box trials); private ranges refused.
  OUTBOUND_ALLOW_LOOPBACK: flag(false),
  OUTBOUND_DENY_PRIVATE: flag(false),
  // How long the audit log keeps its rows (days); the retention job removes older ones hourly.
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(AUDIT_RETENTION_DAYS_DEFAULT),
  // How long the download links in webhook deliveries work (hours).
  WEBHOOK_LINK_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(WEBHOOK_LINK_HOURS_DEFAULT),
  // How long one second of the webhook retry schedule lasts, in ms (tests shorten the schedule).
  WEBHOOK_RETRY_UNIT_MS: z.coerce.number().int().min(1).max(1000).default(1000),
  WORKERS: z.coerce.number().int().min(1).max(256).optional(),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  // Sign-in through the company's identity provider (OpenID Connect): all three, or none.
  OIDC_ISSUER: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  OIDC_CLIENT_ID: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  OIDC_CLIENT_SECRET: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  OIDC_BUTTON_TEXT: z.string().max(60).default(OIDC_BUTTON_TEXT_DEFAULT),
  OIDC_AUTO_REGISTER: flag(false),
  PASSWORD_SIGN_IN: flag(true),
  GOOGLE_CLIENT_ID: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  GOOGLE_CLIENT_SECRET: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  // Google's addresses; a test or a proxy may point them elsewhere.
  GOOGLE_AUTH_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  YOUTUBE_API_URL: z
    .url()
    .default('https://www.googleapis.com')
    .transform((v) => v.replace(/\/$/, '')),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminPassword: string | undefined;
  seedDemo: boolean;
  /** Password of every demo user; generated and printed when unset. */
  demoPassword: string | undefined;
  localEdge: boolean;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  rateLimitPerMinute: number;
  /**
   * Requests per minute of one edge server's agent (its token, wherever it calls from): an agent recording
   * streams reports twice a second and uploads live segments for each.
   */
  agentRateLimitPerMinute: number;
  /** How long a long-poll waits for a change before answering an empty list. */
  longPollSeconds: number;
  /**
   * How long a request body parsed whole (JSON, forms) may take to arrive (at least; 64 kB/s for a large
   * one) before the answer is 408 (platform/http/request-body-timeout.ts).
   */
  requestBodyTimeoutSeconds: number;
  shutdownGraceSeconds: number;
  /** How long a streamed upload (web upload, tus, live segment) may send nothing before it is cut. */
  uploadStallSeconds: number;
  sessionIdleMinutes: number;
  sessionAbsoluteMinutes: number;
  /** How recent a session's sign-in must be for a sensitive change (REAUTH_WINDOW_MINUTES unless tests shorten it). */
  reauthWindowSeconds: number;
  trustProxy: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Base of links in mails; falls back to the address the server listens on. */
  publicUrl: string;
  csrfCookieName: string;
  csrfHeaderName: string;
  /** Key of the HMACs that bind anti-forgery tokens to sessions; from SECRET_KEY or generated into DATA_DIR. */
  secretKey: string | undefined;
  /** The largest file one upload may carry (UPLOAD_MAX_BYTES, default 20 GiB). */
  uploadMaxBytes: number;
  /** Serve the built web app from this folder, when it exists. */
  webDist: string;
  /** Where media files live (DESIGN "Media"): DATA_DIR/media by default, or an S3-compatible bucket. */
  storage:
    | { driver: 'local' }
    | {
        driver: 's3';
        bucket: string;
        /** Key prefix inside the bucket, '' or ending with '/'. */
        prefix: string;
        endpoint: string | undefined;
        region: string;
        /** Unset: the AWS SDK's default chain (environment, profile, instance role). */
        credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      };
  /**
   * How many media jobs (proxies, renders) run at once in each server process (WORKERS; default half the
   * cores, shared between the WEB_CONCURRENCY processes).
   */
  workers: number;
  /** How many server processes serve on this machine (WEB_CONCURRENCY; above 1 only with PostgreSQL). */
  webConcurrency: number;
  /**
   * Which addresses the connections a user configures may reach (platform/outbound.ts): loopback only with
   * OUTBOUND_ALLOW_LOOPBACK=1, private ranges unless OUTBOUND_DENY_PRIVATE=1. Read at each connection.
   */
  outbound: { allowLoopback: boolean; denyPrivate: boolean };
  /** How long the audit log keeps a row (AUDIT_RETENTION_DAYS, default 400). */
  auditRetentionDays: number;
  /** How long a download link in a webhook delivery works (WEBHOOK_LINK_HOURS, default 24). */
  webhookLinkHours: number;
  /** Milliseconds per second of WEBHOOK_RETRY_SECONDS (1000; tests shorten it). */
  webhookRetryUnitMs: number;
  /** The company's identity provider (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET), discovered at start. */
  oidc:
    | { issuer: string; clientId: string; clientSecret: string; buttonText: string; autoRegister: boolean }
    | undefined;
  /** PASSWORD_SIGN_IN=0: only administrators sign in with a password (the others through the provider). */
  passwordSignIn: boolean;
  /** The cloud's Google OAuth client, for YouTube publishing (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET). */
  google:
    | { clientId: string; clientSecret: string; authUrl: string; tokenUrl: string; youtubeApiUrl: string }
    | undefined;
};

export class ConfigError extends Error {}

/** Parses the environment once, at start; a bad value stops the start with a clear message. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid environment: ${problems}`);
  }
  const e = parsed.data;
  const oidcParts = {
    OIDC_ISSUER: e.OIDC_ISSUER,
    OIDC_CLIENT_ID: e.OIDC_CLIENT_ID,
    OIDC_CLIENT_SECRET: e.OIDC_CLIENT_SECRET,
  };
  const oidcMissing = Object.entries(oidcParts)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (oidcMissing.length > 0 && oidcMissing.length < 3)
    throw new ConfigError(
      `OpenID Connect sign-in needs ${oidcMissing.join(' and ')} too (or none of OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)`,
    );
  if (!e.PASSWORD_SIGN_IN && oidcMissing.length > 0)
    throw new ConfigError(
      'PASSWORD_SIGN_IN=0 needs OpenID Connect sign-in (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)',
    );
  if (e.WEB_CONCURRENCY > 1 && !e.DATABASE_URL)
    throw new ConfigError(
      'WEB_CONCURRENCY above 1 needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process',
    );
  const localHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    adminPassword: e.ADMIN_PASSWORD,
    seedDemo: e.SEED_DEMO,
    demoPassword: e.DEMO_PASSWORD,
    localEdge: e.LOCAL_EDGE,
    logLevel: e.LOG_LEVEL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    agentRateLimitPerMinute: e.AGENT_RATE_LIMIT_PER_MINUTE,
    longPollSeconds: e.LONG_POLL_SECONDS,
    requestBodyTimeoutSeconds: e.REQUEST_BODY_TIMEOUT_SECONDS,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    uploadStallSeconds: e.UPLOAD_STALL_SECONDS,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionAbsoluteMinutes: e.SESSION_ABSOLUTE_MINUTES,
    reauthWindowSeconds: e.REAUTH_WINDOW_SECONDS,
    trustProxy: e.TRUST_PROXY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: e.PUBLIC_URL ?? `http://${localHost}:${e.PORT}`,
    csrfCookieName: e.CSRF_COOKIE_NAME,
    csrfHeaderName: e.CSRF_HEADER_NAME,
    secretKey: e.SECRET_KEY,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../../web/dist')),
    storage: storageOf(e),
    workers: e.WORKERS ?? Math.max(1, Math.floor(os.availableParallelism() / 2 / e.WEB_CONCURRENCY)),
    webConcurrency: e.WEB_CONCURRENCY,
    outbound: { allowLoopback: e.OUTBOUND_ALLOW_LOOPBACK, denyPrivate: e.OUTBOUND_DENY_PRIVATE },
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    webhookLinkHours: e.WEBHOOK_LINK_HOURS,
    webhookRetryUnitMs: e.WEBHOOK_RETRY_UNIT_MS,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? {
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            buttonText: e.OIDC_BUTTON_TEXT,
            autoRegister: e.OIDC_AUTO_REGISTER,
          }
        : undefined,
    passwordSignIn: e.PASSWORD_SIGN_IN,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? {
            clientId: e.GOOGLE_CLIENT_ID,
            clientSecret: e.GOOGLE_CLIENT_SECRET,
            authUrl: e.GOOGLE_AUTH_URL,
            tokenUrl: e.GOOGLE_TOKEN_URL,
            youtubeApiUrl: e.YOUTUBE_API_URL,
          }
        : undefined,
  };
};

const storageOf = (e: z.infer<typeof envSchema>): Config['storage'] => {
  if (!e.STORAGE_URL) return { driver: 'local' };
  const url = new URL(e.STORAGE_URL);
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+/, '');
  return {
    driver: 's3',
    bucket: url.hostname,
    prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    credentials:
      e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
        ? { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY }
        : undefined,
  };
};
