import {
  formatFileSize,
  SUBTITLE_LANGUAGE_NAMES,
  SUBTITLE_LANGUAGES,
  SUBTITLE_MAX_BYTES,
  SUBTITLE_MESSAGES,
  type Subtitle,
  type SubtitleFormat,
  type SubtitleLanguage,
  subtitleFormatOf,
} from '@media/contract';

/** One line of the subtitles panel: a language and the file it has, if any. */
export type SubtitleRow = { language: SubtitleLanguage; name: string; file: Subtitle | undefined };

/** Every language subtitles come in, in the module's order, with the media's file of each. */
export const subtitleRows = (attached: readonly Subtitle[]): SubtitleRow[] =>
  SUBTITLE_LANGUAGES.map((language) => ({
    language,
    name: SUBTITLE_LANGUAGE_NAMES[language],
    file: attached.find((subtitle) => subtitle.language === language),
  }));

/**
 * A chosen file as the server will take it: its format and text, or the reason it would be refused (the
 * server checks again). Read before sending, so a wrong file is refused without an upload.
 */
export const readSubtitleFile = (
  bytes: Uint8Array,
): { format: SubtitleFormat; content: string } | { problem: string } => {
  if (bytes.length > SUBTITLE_MAX_BYTES) return { problem: SUBTITLE_MESSAGES.tooLarge };
  const format = subtitleFormatOf(bytes);
  if (!format) return { problem: SUBTITLE_MESSAGES.notSubtitles };
  return { format, content: new TextDecoder().decode(bytes) };
};

/** 'SubRip, 2.05 kB' (the spec's file sizes), or 'None'. */
export const describeSubtitle = (row: SubtitleRow) =>
  row.file ? `${row.file.format === 'vtt' ? 'WebVTT' : 'SubRip'}, ${formatFileSize(row.file.size)}` : 'None';
