import { type TranscodeFormat, transcodeFile } from './publish.ts';
import { burnSubtitles, type SubtitleFormat } from './subtitles.ts';
import { type WatermarkPosition, watermarkFile } from './watermark.ts';

/** A process module that cannot run (unknown, or not installed here): no retry can mend it. */
export class ProcessRefused extends Error {}

/** The file a publish has so far, handed from one process module to the next. */
export type ProcessedFile = { file: string; duration: number | null; hasAudio: boolean };

/** A process node of a publishing button's network: its module and the options it runs with. */
export type ProcessNode = { moduleId: string; options: Record<string, unknown> };

/**
 * Local files a process node uses besides the media, found by whoever runs the publish before the step:
 * the watermark's image (a PNG), the subtitles to burn in.
 */
export type ProcessResources = {
  image?: string;
  subtitles?: { file: string; format: SubtitleFormat };
};

const TRANSCODE_FORMATS: readonly TranscodeFormat[] = ['mp4', 'mov', 'webm'];

/**
 * One process module of a publish on the file so far (the cloud's workers and the edge agent run the same
 * code); as-is hands the file on. `output` is the path without extension: the module adds its container's.
 */
export const runProcessStep = async (
  node: ProcessNode,
  input: ProcessedFile,
  output: string,
  options: { signal?: AbortSignal; onProgress?: (percent: number) => void },
  resources: ProcessResources = {},
): Promise<ProcessedFile> => {
  const step = { input: input.file, duration: input.duration, hasAudio: input.hasAudio, ...options };
  switch (node.moduleId) {
    case 'as-is':
      return input;
    case 'transcode': {
      const format = TRANSCODE_FORMATS.find((candidate) => candidate === node.options.format) ?? 'mp4';
      const file = `${output}.${format}`;
      await transcodeFile({
        ...step,
        output: file,
        format,
        videoBitrateKbps: Number(node.options.videoBitrate) || 5000,
      });
      return { ...input, file };
    }
    case 'watermark': {
      const file = `${output}.mp4`;
      await watermarkFile({
        ...step,
        output: file,
        text: typeof node.options.text === 'string' ? node.options.text : undefined,
        image: resources.image,
        position: (node.options.position ?? 'bottom-right') as WatermarkPosition,
      });
      return { ...input, file };
    }
    case 'burn-subtitles': {
      if (!resources.subtitles) throw new Error('No subtitles were given to burn in');
      const file = `${output}.mp4`;
      await burnSubtitles({
        ...step,
        output: file,
        ...resources.subtitles,
        subtitles: resources.subtitles.file,
      });
      return { ...input, file };
    }
    default:
      throw new ProcessRefused(node.moduleId);
  }
};
