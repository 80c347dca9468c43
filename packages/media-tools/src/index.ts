/**
 * ffmpeg and ffprobe for the edge agent and the cloud's media jobs (DESIGN "Media"): the same proxy,
 * poster and filmstrip wherever a file is ingested or uploaded. Needs Debian's `ffmpeg` on the PATH.
 */
export { contentHash } from './hash.ts';
export type { MediaProbe } from './probe.ts';
export { probe } from './probe.ts';
export type { ProxyJob } from './proxy.ts';
export { makeProxy, proxyArguments } from './proxy.ts';
export type { TranscodeFormat, WatermarkPosition } from './publish.ts';
export { transcodeFile, watermarkFile } from './publish.ts';
export type { ProcessedFile, ProcessNode } from './publish-process.ts';
export { ProcessRefused, runProcessStep } from './publish-process.ts';
export type { RenderJob, RenderPiece } from './render.ts';
export { renderEdl, renderedDuration, renderFilter } from './render.ts';
export { makeFilmstrip, makePoster } from './thumbs.ts';
