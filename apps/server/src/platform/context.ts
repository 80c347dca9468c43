import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { DatabaseHandle, Db } from './db/client.ts';
import type { Mailer } from './mail.ts';

/** What every module gets: built once at start, shared by all requests. */
export type AppContext = {
  config: Config;
  database: DatabaseHandle;
  db: Db;
  secretKey: string;
  mailer: Mailer;
  log: FastifyBaseLogger;
};
