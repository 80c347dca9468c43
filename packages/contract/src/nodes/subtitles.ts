import { z } from 'zod';
import { idTextSchema } from '../http/input.ts';

/** The languages a media's subtitles come in: the burn-subtitles module's choices. */
export const SUBTITLE_LANGUAGES = ['en', 'fr', 'de', 'es', 'nb'] as const;
export type SubtitleLanguage = (typeof SUBTITLE_LANGUAGES)[number];
export const SUBTITLE_LANGUAGE_NAMES: Readonly<Record<SubtitleLanguage, string>> = {
  en: 'English',
  fr: 'French',
  de: 'German',
  es: 'Spanish',
  nb: 'Norwegian',
};
export const isSubtitleLanguage = (value: unknown): value is SubtitleLanguage =>
  (SUBTITLE_LANGUAGES as readonly unknown[]).includes(value);

/** SubRip and WebVTT, told apart by their content. */
export const SUBTITLE_FORMATS = ['srt', 'vtt'] as const;
export type SubtitleFormat = (typeof SUBTITLE_FORMATS)[number];
/** A subtitle file holds text only: a megabyte is hours of cues. */
export const SUBTITLE_MAX_BYTES = 1_000_000;

export const SUBTITLE_MESSAGES = {
  tooLarge: 'The subtitle file is too large (at most 1 MB)',
  notSubtitles: 'A subtitle file must be SubRip (.srt) or WebVTT (.vtt) text in UTF-8, with at least one cue',
  unknownLanguage: `Subtitles come in ${SUBTITLE_LANGUAGES.join(', ')}`,
  saved: (language: SubtitleLanguage) => `${SUBTITLE_LANGUAGE_NAMES[language]} subtitles saved`,
  removed: (language: SubtitleLanguage) => `${SUBTITLE_LANGUAGE_NAMES[language]} subtitles removed`,
} as const;

const BOM = '\uFEFF';
const SRT_TIME = String.raw`\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}`;
const VTT_TIME = String.raw`(?:\d+:)?\d{2}:\d{2}\.\d{3}`;
/** A SubRip file opens with a cue: its number, then its times on the next line. */
const SRT_START = new RegExp(String.raw`^\s*\d+[ \t]*\r?\n${SRT_TIME}[ \t]*-->[ \t]*${SRT_TIME}`);
/** A WebVTT file opens with 'WEBVTT' alone or followed by a space, a tab or a line break. */
const VTT_START = /^WEBVTT(?:[ \t][^\r\n]*)?(?:\r?\n|\r|$)/;
const VTT_CUE = new RegExp(String.raw`(?:^|\n)[ \t]*${VTT_TIME}[ \t]+-->[ \t]+${VTT_TIME}`);

/**
 * The format of a subtitle file by its content, or null when it is neither SubRip nor WebVTT text in
 * UTF-8 with at least one cue (binary, another encoding, a NUL character, no cue).
 */
export const subtitleFormatOf = (content: Uint8Array): SubtitleFormat | null => {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(content);
  } catch {
    return null;
  }
  if (text.startsWith(BOM)) text = text.slice(1);
  if (text.includes('\0')) return null;
  if (VTT_START.test(text)) return VTT_CUE.test(text) ? 'vtt' : null;
  return SRT_START.test(text) ? 'srt' : null;
};

/** One language of a media's subtitles (GET /api/media/{id}/subtitles). */
export const subtitleSchema = z.object({
  language: z.enum(SUBTITLE_LANGUAGES),
  format: z.enum(SUBTITLE_FORMATS),
  size: z.number().int().describe('Bytes'),
  updatedTime: z.string().describe('ISO 8601'),
});
export type Subtitle = z.infer<typeof subtitleSchema>;

/** /api/media/{id}/subtitles/{language}. */
export const subtitleParamsSchema = z.object({
  id: idTextSchema,
  language: z.enum(SUBTITLE_LANGUAGES, { error: SUBTITLE_MESSAGES.unknownLanguage }),
});
