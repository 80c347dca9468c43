import fs from 'node:fs';
import { filterFile } from './filter-files.ts';
import { burntArguments, runStep, type Step } from './publish.ts';

export type SubtitleFormat = 'srt' | 'vtt';

/**
 * The burn-subtitles module: the cues of a subtitle file (SRT or WebVTT, UTF-8) drawn into the picture at
 * their times (ffmpeg's subtitles filter, libass); the sound copied. The file is copied to a plain name
 * first, so its own name or folder is never read as filter syntax.
 */
export const burnSubtitles = async (step: Step & { subtitles: string; format: SubtitleFormat }) => {
  const copy = await filterFile(`subtitles.${step.format}`, (file) =>
    fs.promises.copyFile(step.subtitles, file),
  );
  try {
    await runStep(step, '.mp4', (output) => [
      '-i',
      step.input,
      '-vf',
      `subtitles=filename=${copy.path}:charenc=UTF-8`,
      ...burntArguments(step, output),
    ]);
  } finally {
    await copy.remove();
  }
};
