import { z } from 'zod';
import { idSchema } from '../http/input.ts';

/**
 * The steps of a published item's help (spec3 §4 Publish help, DESIGN "Publishing"): the server answers a
 * server form action; a set-options answer names the next step and the client calls again with it.
 */
export const PUBLISH_HELP_STEPS = ['connect-youtube', 'check-youtube', 'republish'] as const;
export type PublishHelpStep = (typeof PUBLISH_HELP_STEPS)[number];

/** The options a help call carries: the step to take (none on the first call), and anything else is kept. */
export const publishHelpOptionsSchema = z
  .object({ step: z.enum(PUBLISH_HELP_STEPS, { error: 'Unknown help step' }).optional() })
  .catchall(z.unknown());
export type PublishHelpOptions = z.infer<typeof publishHelpOptionsSchema>;

/** The web's page of a published item's help (spec2 page area "publish help"). */
export const publishHelpLink = (publishId: number) => `/publishes/${publishId}/help`;

/** GET /api/publishes/{id}/help?options={json} */
export const publishHelpQuerySchema = z.object({
  options: z
    .string()
    .max(10_000)
    .optional()
    .transform((text, context) => {
      if (text === undefined || text === '') return {};
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: 'options must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(publishHelpOptionsSchema),
});

/** POST /api/publishes/{id}/help: {options}, or with publishMediaId (spec3 §7). */
export const publishHelpBodySchema = z
  .object({ options: publishHelpOptionsSchema.default({}), publishMediaId: idSchema.optional() })
  .strict();

export const PUBLISH_HELP_MESSAGES = {
  running: (progress: number | null) =>
    `This item is being published${progress === null ? '' : ` (${progress}%)`}: there is nothing to help with`,
  queued: 'This item is waiting to be published: there is nothing to help with',
  done: (locations: string) => `This item was published: ${locations}`,
  failed: (reason: string) => `Publishing failed: ${reason}. Correct the cause, then publish it again.`,
  deleted: 'This item is in the Recycle Bin',
  youtubeNotConfigured:
    'YouTube is not configured on this cloud: its administrator sets GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET',
  youtubeNotConnected: 'No YouTube channel is connected to this account: open the help of the published item',
  youtubeStillNotConnected:
    'No YouTube channel is connected yet: finish connecting in the window Google opened, then check again',
  youtubeRevoked: 'The YouTube channel of this account is no longer connected: connect it again',
  youtubeConnected: (channel: string, account: string) =>
    `The YouTube channel ${channel} is now connected to ${account}. You may close this window.`,
  youtubeConnectFailed: (reason: string) => `YouTube could not be connected: ${reason}`,
  youtubeSitesConnect: "Each account connects its own YouTube channel, from a published item's help",
  publishingAgain: (item: number) => `Publishing again as item ${item}`,
  mediaNotPublished: 'publishMediaId is not the media of this published item',
} as const;
