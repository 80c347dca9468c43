/**
 * ffmpeg and ffprobe for the edge agent and the cloud's media jobs (DESIGN "Media"): the same proxy,
 * poster and filmstrip wherever a file is ingested or uploaded. Needs Debian's `ffmpeg` on the PATH.
 */
export { endLeftoverTools, markToolsOf, spawnTool, TOOL_MARK_VARIABLE, toolMark } from './children.ts';
export { exportIntoFolder, freeFile, safeFolder, safeName } from './export-files.ts';
export { contentHash } from './hash.ts';
export type { MediaProbe } from './probe.ts';
export { probe } from './probe.ts';
export type { ProxyJob } from './proxy.ts';
export { makeProxy, proxyArguments } from './proxy.ts';
export type { TranscodeFormat, TranscodeOptions } from './publish.ts';
export { transcodeArguments, transcodeFile } from './publish.ts';
export type { ProcessedFile, ProcessNode, ProcessResources } from './publish-process.ts';
export { ProcessRefused, runProcessStep } from './publish-process.ts';
export type { FinishedSegment, Recording, RecordingFormat, StreamRecordingSettings } from './record.ts';
export {
  finishedSegments,
  joinSegments,
  recordedBytes,
  recordedSegments,
  recordingArguments,
  recordStream,
} from './record.ts';
export type { RenderJob, RenderPiece } from './render.ts';
export { renderEdl, renderedDuration, renderFilter } from './render.ts';
export type { StreamInput } from './stream-input.ts';
export { StreamRefused, streamInputAddress, streamInputArguments } from './stream-input.ts';
export type { StreamSender, StreamTarget } from './stream-sender.ts';
export { sendTestStream } from './stream-sender.ts';
export type { SubtitleFormat } from './subtitles.ts';
export { burnSubtitles } from './subtitles.ts';
export { makeFilmstrip, makePoster } from './thumbs.ts';
export type { WatermarkOptions, WatermarkPosition } from './watermark.ts';
export { WATERMARK_IMAGE_HEIGHT, WATERMARK_IMAGE_OPACITY, watermarkFile } from './watermark.ts';
