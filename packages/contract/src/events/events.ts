import { z } from 'zod';
import { resultsOf } from '../http/envelope.ts';
import { CHANNELS } from './channels.ts';

const ADMIN_ONLY_CHANNELS: ReadonlySet<string> = new Set([CHANNELS.loginLockouts]);

/** DESIGN.md: a long-poll waits up to 25 s; an event id idle for 5 minutes expires (410). */
export const LONGPOLL_WAIT_SECONDS = 25;
export const EVENT_IDLE_MINUTES = 5;

export const MSG_EVENT_EXPIRED = 'This update channel has expired; create a new one';
export const MSG_CHANNELS_REQUIRED = 'At least one channel is required';

export const channelSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_./:-]+$/, 'Invalid channel name');

export const createEventResponseSchema = resultsOf(z.object({ eventId: z.string() }));
export const eventParamSchema = z.object({ eventId: z.string().min(1).max(100) });
export const subscribeRequestSchema = z.strictObject({
  channels: z
    .array(channelSchema)
    .min(1, MSG_CHANNELS_REQUIRED)
    .max(500)
    .describe('Channels to receive, as named by collection responses'),
});

export const liveUpdateSchema = z.object({
  channel: z.string(),
  timestamp: z.number().int().describe('Milliseconds since the epoch'),
  data: z.object({ modified: z.array(z.union([z.string(), z.number()])) }),
});
export type LiveUpdate = z.infer<typeof liveUpdateSchema>;
export const longPollResponseSchema = resultsOf(z.array(liveUpdateSchema));

/**
 * Who may read a channel, from its name: `cloud/loginLockouts` and `cloud/admin/...` need an administrator,
 * other `cloud/...` any signed-in user; `users/{id}/...` the user (or an administrator);
 * `accounts/{id}/...` anyone who may use the account; `sites/{id}/...` its managers;
 * `edgeServers/{id}/...` whoever may see that edge server (its owner, its site's managers).
 */
export type ChannelScope =
  | { kind: 'cloud'; adminOnly: boolean }
  | { kind: 'user'; id: number }
  | { kind: 'account'; id: number }
  | { kind: 'site'; id: number }
  | { kind: 'edgeServer'; id: number }
  | { kind: 'unknown' };

export const channelScope = (channel: string): ChannelScope => {
  const [root, id] = channel.split('/');
  if (root === 'cloud')
    return {
      kind: 'cloud',
      adminOnly: ADMIN_ONLY_CHANNELS.has(channel) || channel.startsWith('cloud/admin/'),
    };
  const numericId = Number(id);
  if (!Number.isInteger(numericId) || numericId <= 0) return { kind: 'unknown' };
  if (root === 'users') return { kind: 'user', id: numericId };
  if (root === 'accounts') return { kind: 'account', id: numericId };
  if (root === 'sites') return { kind: 'site', id: numericId };
  if (root === 'edgeServers') return { kind: 'edgeServer', id: numericId };
  return { kind: 'unknown' };
};
