import net from 'node:net';
import {
  PUBLISH_MODULES,
  type PublishContextKind,
  type PublishModuleType,
  publishModule,
  type ServerFormAction,
} from '@media/contract';
import type { Config } from '../../platform/config.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { type Call, manageScope, readScope } from './scope.ts';

export const msgUnknownAction = (action: string) => `Unknown action ${action}`;
export const MSG_FOLDER_PARENT = "A folder may not contain '..'";
export const MSG_YOUTUBE_NOT_CONFIGURED = 'YouTube is not configured on this cloud';
export const MSG_FTP_NO_HOST = 'Enter the host of the FTP server first';
export const msgFtpConnected = (address: string) => `Connected to ${address}`;
export const msgFtpFailed = (address: string, reason: string) =>
  `Could not connect to ${address} - ${reason}`;

export const FTP_DEFAULT_PORT = 21;
export const FTP_TEST_TIMEOUT_MS = 3000;

type Options = Record<string, unknown>;
type ActionHandler = (options: Options, config: Config) => Promise<ServerFormAction> | ServerFormAction;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** folder-export `check`: a folder of the location, trimmed, from the root, never climbing out. */
const checkFolder: ActionHandler = (options) => {
  const segments = text(options.folder).split(/[\\/]+/);
  if (segments.includes('..'))
    return { action: 'display-message', type: 'danger', message: MSG_FOLDER_PARENT };
  const folder = `/${segments.filter((segment) => segment !== '' && segment !== '.').join('/')}`;
  return { action: 'set-options', options: { ...options, folder } };
};

/**
 * youtube `connect`: linking a YouTube channel needs the cloud's OAuth client and a callback that stores
 * the channel's tokens; neither exists yet, so the action says so rather than start a flow it cannot end.
 */
const connectYoutube: ActionHandler = () => ({
  action: 'display-message',
  type: 'danger',
  message: MSG_YOUTUBE_NOT_CONFIGURED,
});

/** 'host' or 'host:port' (IPv6 in brackets), port 21 by default. */
const ftpAddress = (value: string) => {
  const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(value) ?? /^([^:]+)(?::(\d+))?$/.exec(value);
  if (!match) return undefined;
  const port = match[2] ? Number(match[2]) : FTP_DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { host: match[1] as string, port };
};

/** A TCP connection to the server within 3 s; nothing is sent. */
const tcpProbe = (host: string, port: number) =>
  new Promise<string | null>((resolve) => {
    const socket = net.connect({ host, port });
    const done = (problem: string | null) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(FTP_TEST_TIMEOUT_MS, () => done('no answer within 3 seconds'));
    socket.once('connect', () => done(null));
    socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });

/** ftp `test`: can the cloud reach the FTP server? */
const testFtp: ActionHandler = async (options) => {
  const host = text(options.host);
  if (!host) return { action: 'display-message', type: 'danger', message: MSG_FTP_NO_HOST };
  const address = ftpAddress(host);
  if (!address)
    return { action: 'display-message', type: 'danger', message: msgFtpFailed(host, 'bad address') };
  const shown = `${address.host}:${address.port}`;
  const problem = await tcpProbe(address.host, address.port);
  return problem
    ? { action: 'display-message', type: 'danger', message: msgFtpFailed(shown, problem) }
    : { action: 'display-message', type: 'info', message: msgFtpConnected(shown) };
};

const ACTIONS: Record<string, Record<string, ActionHandler>> = {
  'folder-export': { check: checkFolder },
  youtube: { connect: connectYoutube },
  ftp: { test: testFtp },
};

export const listModules = async ({
  ctx,
  actor,
  kind,
  id,
  type,
}: Call<{ kind: PublishContextKind; id: number; type?: PublishModuleType }>) => {
  await readScope(ctx.db, actor, kind, id);
  return PUBLISH_MODULES.filter((module) => type === undefined || module.type === type);
};

/** A module's server form action (spec3 §4), for those who manage the context's buttons. */
export const moduleAction = async ({
  ctx,
  actor,
  kind,
  id,
  moduleId,
  action,
  options,
}: Call<{ kind: PublishContextKind; id: number; moduleId: string; action: string; options: Options }>) => {
  await manageScope(ctx.db, actor, kind, id);
  if (!publishModule(moduleId)) throw notFound('Publish module');
  const handler = ACTIONS[moduleId]?.[action];
  if (!handler) throw badRequest(msgUnknownAction(action));
  return handler(options, ctx.config);
};
