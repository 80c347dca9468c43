import fs from 'node:fs';
import { filterFile } from './filter-files.ts';
import { probe } from './probe.ts';
import { burntArguments, runStep, type Step } from './publish.ts';

export type WatermarkPosition = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

/** The image's height as a share of the picture's, and how opaque it is. */
export const WATERMARK_IMAGE_HEIGHT = 0.15;
export const WATERMARK_IMAGE_OPACITY = 0.8;

/** drawtext's place for the text, `offset` further from the top or bottom edge (past the image). */
const TEXT_PLACES: Record<WatermarkPosition, (offset: string) => string> = {
  'top-left': (offset) => `x=h/30:y=h/30+(${offset})`,
  'top-right': (offset) => `x=w-tw-h/30:y=h/30+(${offset})`,
  'bottom-left': (offset) => `x=h/30:y=h-th-h/30-(${offset})`,
  'bottom-right': (offset) => `x=w-tw-h/30:y=h-th-h/30-(${offset})`,
};
/** overlay's place for the image (W, H the picture's size; w, h the image's). */
const IMAGE_PLACES: Record<WatermarkPosition, string> = {
  'top-left': 'x=H/30:y=H/30',
  'top-right': 'x=W-w-H/30:y=H/30',
  'bottom-left': 'x=H/30:y=H-h-H/30',
  'bottom-right': 'x=W-w-H/30:y=H-h-H/30',
};

export type WatermarkOptions = {
  /** Burnt in white on a dim box; with an image, past it (below it at the top, above it at the bottom). */
  text?: string;
  /** A picture (PNG, with its transparency) in the corner, WATERMARK_IMAGE_HEIGHT of the picture high. */
  image?: string;
  position: WatermarkPosition;
};

/**
 * The watermark module: a text, an image or both burnt into a corner of the picture (the image in the
 * corner, the text past it); the sound copied. One of the two must be given.
 */
export const watermarkFile = async (step: Step & WatermarkOptions) => {
  const text = step.text?.trim() ? step.text : undefined;
  if (!text && !step.image) throw new Error('A watermark needs a text or an image');
  const imageHeight = step.image ? await pictureHeight(step.input, step.signal) : 0;
  // The text goes through a file, so no character of it is read as filter syntax.
  const textFile = text
    ? await filterFile('watermark.txt', (file) => fs.promises.writeFile(file, text))
    : undefined;
  try {
    const filters: string[] = [];
    let picture = '[0:v]';
    if (textFile) {
      // With an image in the corner, the text sits beyond it: below it at the top, above it at the bottom.
      const offset = step.image ? `${imageHeight}+h/30` : '0';
      filters.push(
        `${picture}drawtext=textfile=${textFile.path}:expansion=none:fontcolor=white:fontsize=h/18:box=1:boxcolor=black@0.4:boxborderw=8:${TEXT_PLACES[step.position](offset)}[texted]`,
      );
      picture = '[texted]';
    }
    if (step.image) {
      filters.push(
        `[1:v]scale=-1:${imageHeight},format=rgba,colorchannelmixer=aa=${WATERMARK_IMAGE_OPACITY}[image]`,
        `${picture}[image]overlay=${IMAGE_PLACES[step.position]}:format=auto[marked]`,
      );
      picture = '[marked]';
    }
    await runStep(step, '.mp4', (output) => [
      '-i',
      step.input,
      ...(step.image ? ['-i', step.image] : []),
      '-filter_complex',
      filters.join(';'),
      '-map',
      picture,
      ...(step.hasAudio ? ['-map', '0:a:0'] : []),
      ...burntArguments(step, output),
    ]);
  } finally {
    await textFile?.remove();
  }
};

/** The image's height in pixels for the input's picture (even, at least 2). */
const pictureHeight = async (input: string, signal?: AbortSignal) => {
  const info = await probe(input, { signal });
  if (!info?.height) throw new Error(`${input} has no picture to put a watermark on`);
  return Math.max(2, Math.round((info.height * WATERMARK_IMAGE_HEIGHT) / 2) * 2);
};
