import { z } from 'zod';
import { CHANNELS } from '../events/channels.ts';
import { idSchema } from '../http/input.ts';

/** Where a clip's file is: none asked for yet, being rendered, rendered (playable), or not renderable (with why). */
export const CLIP_RENDER_STATUSES = ['unrendered', 'processing', 'ready', 'failed'] as const;
export type ClipRenderStatus = (typeof CLIP_RENDER_STATUSES)[number];

/** POST /api/edls/{id}/render: nothing but the account the clip is expected in, as the edl GETs take it. */
export const clipRenderRequestSchema = z
  .strictObject({
    accountId: idSchema.optional().describe('The account the clip belongs to; another account is a 404'),
  })
  .describe('Render a clip or sequence into a playable file, if it has none yet');
export type ClipRenderRequest = z.infer<typeof clipRenderRequestSchema>;

/** POST and GET /api/edls/{id}/render: the clip's render, and where its changes are announced. */
export const clipRenderStateSchema = z.object({
  mediaId: z.number().int(),
  status: z.enum(CLIP_RENDER_STATUSES),
  error: z.string().nullable().describe('Why the clip could not be rendered'),
  channel: z.string().describe("The account's media tree channel: a render that ends changes the clip there"),
});
export type ClipRenderState = z.infer<typeof clipRenderStateSchema>;

/** The channel a clip's render state changes on (its account's media tree). */
export const clipRenderChannel = (accountId: number) => CHANNELS.nodes(accountId);

/** The floating player's export of a clip (spec3 §2 Floating player: the export button). */
export const CLIP_EXPORT_MESSAGES = {
  rendering: 'Rendering…',
  renderingHint: 'The clip is being rendered into a playable file in its folder',
  rendered: (name: string) => `${name} is rendered: the player plays its file`,
  failed: (reason: string) => `Unable to export the clip - ${reason}`,
  exportHint: 'Render the clip into a playable file and play it',
} as const;
