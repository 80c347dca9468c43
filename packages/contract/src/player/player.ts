import { z } from 'zod';
import { idSchema } from '../http/input.ts';
import { edlSchema, type nodeCreateSchema } from '../nodes/nodes.ts';
import { clipThumbPoint } from '../nodes/rules.ts';

/**
 * spec3 §2 Floating player, §3 Clip, §4 Player, §7 Player messages, §8 and §9: the floating player, the
 * embedded player page it frames, and the messages they exchange with `window.postMessage`.
 *
 * The spec names the messages but not their payloads; every message here is one object with a `type`.
 */

/** spec3 §9 Player delays: the source loads 1 s after the frame, the controls mode 1 s after that. */
export const PLAYER_DELAY_MS = 1000;
/** spec3 §9 Player window offsets: the window's frame around the video (sides, title bar) and its place. */
export const PLAYER_WINDOW_OFFSET_X = 12;
export const PLAYER_WINDOW_OFFSET_Y = 46;
/** spec3 §9 Minimum size 650x300, minimised size 320x200. */
export const PLAYER_MIN_SIZE = { width: 650, height: 300 } as const;
export const PLAYER_MINIMISED_SIZE = { width: 320, height: 200 } as const;
/** spec3 §9 Naming dialog width. */
export const CLIP_NAMING_DIALOG_WIDTH = 250;
/** Frames per second when the media does not say. */
export const DEFAULT_PLAYER_FPS = 25;

/** The embedded video player address (spec3 §2). */
export const embeddedPlayerPath = (accountId: number, accountName: string) =>
  `/accounts/${accountId}/reactvideoplayer?accountName=${encodeURIComponent(accountName)}`;

/** spec3 §2 clip naming dialog and §8 Player texts. */
export const PLAYER_MESSAGES = {
  openFailed: (reason: string) => `An error occurred opening the Player: ${reason}`,
  saveToLocation: (path: string) => `Save to current location: ${path}`,
  clipTitle: (name: string) => `${name} (copy)`,
  clipButton: 'Clip',
  cancelButton: 'Cancel',
  titleLabel: 'Title',
  exportButton: 'Export clip',
  minimise: 'Minimise',
  restore: 'Restore',
  close: 'Close',
  markIn: 'Mark in',
  markOut: 'Mark out',
  mediaLoadFailed: 'The media could not be loaded',
  liveUnsupported: 'This browser cannot play live streams',
  liveBadge: 'Live',
  clipSaved: (name: string, path: string) => `Clip ${name} saved to ${path}`,
  clipSaveFailed: (reason: string) => `Unable to save the clip - ${reason}`,
} as const;

export const CONTROLS_MODES = ['viewer', 'editor'] as const;
export type ControlsMode = (typeof CONTROLS_MODES)[number];

const seconds = z.number().min(0).max(1_000_000);
const frame = z.number().int().min(0);

// ---- to the player (spec3 §7) ----

export const requestInOutPointsSchema = z.strictObject({ type: z.literal('requestInOutPoints') });
export const seekSchema = z
  .strictObject({
    type: z.literal('seek'),
    seconds: seconds.optional(),
    skipToEnd: z.literal(true).optional(),
  })
  .refine((seek) => (seek.seconds === undefined) !== (seek.skipToEnd === undefined), {
    error: 'A seek names either seconds or skipToEnd',
  });
export const stopSchema = z.strictObject({ type: z.literal('stop') });
export const playSchema = z.strictObject({ type: z.literal('play') });
export const controlsModeSchema = z.strictObject({
  type: z.literal('controlsMode'),
  mode: z.enum(CONTROLS_MODES),
});
export const loadSourceSchema = z
  .strictObject({
    type: z.literal('loadSource'),
    mediaId: idSchema.optional(),
    edlId: idSchema.optional(),
    /** The edl's pieces, so the player needs no further call to play an edl. */
    edl: edlSchema.optional(),
    fps: z.number().positive().max(1000).optional(),
    /** The media is a stream being recorded (`lifestream`): play its live HLS playlist. */
    live: z.boolean().optional(),
  })
  .refine((source) => source.mediaId !== undefined || source.edl !== undefined, {
    error: 'A source names a media id or an edl',
  });
export const windowSizeSchema = z.strictObject({
  type: z.literal('windowSize'),
  width: z.number().min(0),
  height: z.number().min(0),
});

export const playerCommandSchema = z.discriminatedUnion('type', [
  requestInOutPointsSchema,
  seekSchema,
  stopSchema,
  playSchema,
  controlsModeSchema,
  loadSourceSchema,
  windowSizeSchema,
]);
export type PlayerCommand = z.infer<typeof playerCommandSchema>;
export type LoadSource = z.infer<typeof loadSourceSchema>;

// ---- from the player (spec3 §7) ----

export const errorLoadingMediaSchema = z.strictObject({
  type: z.literal('errorLoadingMedia'),
  reason: z.string().max(1000),
});
export const jsplayerReadySchema = z.strictObject({
  type: z.literal('jsplayerReady'),
  duration: z.number().min(0).nullable(),
  videoWidth: z.number().int().min(0),
  videoHeight: z.number().int().min(0),
});

/** spec3 §3 Clip, as the player marks it: frames at fps, the image frame's picture, and the edl it makes. */
export const clipMarksSchema = z.strictObject({
  inFrame: frame,
  outFrame: frame,
  imageFrame: frame,
  fps: z.number().positive().max(1000),
  imageJpegDataURL: z.string().startsWith('data:image/jpeg;base64,'),
  /** Frames between the in and out points. */
  length: frame,
  videoWidth: z.number().int().min(0),
  /** True when the user marked an in or out point, false for the whole media. */
  isSelection: z.boolean(),
  edl: edlSchema,
});
export type ClipMarks = z.infer<typeof clipMarksSchema>;
export const clippingSchema = clipMarksSchema.extend({ type: z.literal('clipping') });
export type Clipping = z.infer<typeof clippingSchema>;

export const playerEventSchema = z.discriminatedUnion('type', [
  errorLoadingMediaSchema,
  jsplayerReadySchema,
  clippingSchema,
]);
export type PlayerEvent = z.infer<typeof playerEventSchema>;

/** spec3 §3 Clip: the marks plus the name the user gives it. */
export type Clip = ClipMarks & { name: string; description?: string; fromNode?: string };

const JPEG_DATA_URL_PREFIX = 'data:image/jpeg;base64,';

/**
 * spec3 §3 Clip save payload: type edl, name, thumb {type jpeg, data base64}, thumbPoint and edl, where
 * thumbPoint in seconds is (imageFrame - inFrame) / fps.
 */
export const clipSavePayload = (
  clip: Pick<Clip, 'name' | 'edl' | 'imageFrame' | 'inFrame' | 'fps' | 'imageJpegDataURL'>,
  parentPath: string,
): z.input<typeof nodeCreateSchema> => ({
  parentPath,
  type: 'edl',
  name: clip.name,
  thumb: { type: 'jpeg', data: clip.imageJpegDataURL.slice(JPEG_DATA_URL_PREFIX.length) },
  thumbPoint: clipThumbPoint(clip),
  edl: clip.edl,
});
