import net from 'node:net';
import {
  FTP_TEST_PROBLEMS,
  ftpAddress,
  PUBLISH_HELP_MESSAGES,
  PUBLISH_MODULES,
  type PublishContextKind,
  type PublishModuleType,
  publishModule,
  type ServerFormAction,
  withIconChoices,
} from '@media/contract';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { outboundGuard, outboundRefusalIn } from '../../platform/outbound.ts';
import { listIcons } from './icons.ts';
import { type Call, manageScope, readScope } from './scope.ts';
import { consentUrl } from './youtube.ts';

export const msgUnknownAction = (action: string) => `Unknown action ${action}`;
export const MSG_FOLDER_PARENT = "A folder may not contain '..'";
export const MSG_FTP_NO_HOST = 'Enter the host of the FTP server first';
export const msgFtpConnected = (address: string) => `Connected to ${address}`;
export const msgFtpFailed = (address: string, reason: string) =>
  `Could not connect to ${address} - ${reason}`;

export const FTP_TEST_TIMEOUT_MS = 3000;

type Options = Record<string, unknown>;
type ActionCall = Call<{ kind: PublishContextKind; id: number }>;
type ActionHandler = (options: Options, call: ActionCall) => Promise<ServerFormAction> | ServerFormAction;

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
 * youtube `connect`: Google's consent screen for the account's channel (open-url); the callback keeps the
 * channel's refresh token for the account's publishes. A site's buttons publish to each account's own channel.
 */
const connectYoutube: ActionHandler = (_options, { ctx, actor, kind, id }) => {
  if (!ctx.config.google)
    return { action: 'display-message', type: 'danger', message: PUBLISH_HELP_MESSAGES.youtubeNotConfigured };
  if (kind === 'sites')
    return { action: 'display-message', type: 'info', message: PUBLISH_HELP_MESSAGES.youtubeSitesConnect };
  return { action: 'open-url', url: consentUrl(ctx, ctx.config.google, id, actor.userId) };
};

/** What a failed connection test says: a few words of ours, never a code that maps the network. */
const problemOf = (error: NodeJS.ErrnoException): string => {
  if (outboundRefusalIn(error)) return FTP_TEST_PROBLEMS.refused;
  if (error.code === 'ECONNREFUSED') return FTP_TEST_PROBLEMS.connectionRefused;
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return FTP_TEST_PROBLEMS.notFound;
  return FTP_TEST_PROBLEMS.unreachable;
};

/** A TCP connection within 3 s to the address the outbound guard checked; nothing is sent. */
const tcpProbe = (ctx: AppContext, host: string, port: number) =>
  outboundGuard(ctx.config, 'publishing')
    .resolve(host, port)
    .then(
      (target) =>
        new Promise<string | null>((resolve) => {
          const socket = net.connect({ host: target.address, port });
          const done = (problem: string | null) => {
            socket.destroy();
            resolve(problem);
          };
          socket.setTimeout(FTP_TEST_TIMEOUT_MS, () => done(FTP_TEST_PROBLEMS.timedOut));
          socket.once('connect', () => done(null));
          socket.on('error', (error: NodeJS.ErrnoException) => done(problemOf(error)));
        }),
      (error: NodeJS.ErrnoException) => problemOf(error),
    );

/** ftp `test`: can the cloud reach the FTP server (port 990 for implicit FTPS when the host names none)? */
const testFtp: ActionHandler = async (options, { ctx }) => {
  const host = text(options.host);
  if (!host) return { action: 'display-message', type: 'danger', message: MSG_FTP_NO_HOST };
  const address = ftpAddress(host, options.encryption);
  if (!address)
    return { action: 'display-message', type: 'danger', message: msgFtpFailed(host, 'bad address') };
  const shown = `${address.host}:${address.port}`;
  const problem = await tcpProbe(ctx, address.host, address.port);
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
  const modules = PUBLISH_MODULES.filter((module) => type === undefined || module.type === type);
  if (!modules.some((module) => module.id === 'watermark')) return modules;
  // The watermark may burn in an uploaded icon of the context: those are its icon field's choices.
  const icons = await listIcons({ ctx, actor, kind, id });
  return modules.map((module) => withIconChoices(module, icons));
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
  return handler(options, { ctx, actor, kind, id });
};
