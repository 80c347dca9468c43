import fs from 'node:fs';
import path from 'node:path';
import type { AgentEndpoint, AgentQueueItem, IngestSettings } from '@media/contract';
import { NEW_INGEST_FORMAT, packIngestFormat, proxyPlan } from '@media/contract';
import {
  contentHash,
  type MediaProbe,
  makeFilmstrip,
  makePoster,
  makeProxy,
  probe,
} from '@media/media-tools';
import { type CloudClient, CloudError } from './cloud.ts';
import type { FileSource } from './sources/index.ts';
import { type ItemFileRendition, uploadItemFile } from './upload.ts';

/** What the agent does when the cloud names no account for an endpoint: a standard proxy, no source kept. */
const DEFAULT_INGEST: IngestSettings = {
  format: packIngestFormat(NEW_INGEST_FORMAT),
  maxResolution: 640,
  makeProxy: true,
  keepSource: false,
};

/** How the percentage of an item is spread over its steps. */
const STEPS = { probed: 5, transcoded: 75, thumbnails: 80, uploaded: 99 } as const;
/** A report at least this often while a step runs, so that a person's abort reaches the agent quickly. */
const REPORT_EVERY_MS = 1000;

export type IngestEnvironment = {
  cloud: CloudClient;
  cloudUrl: string;
  token: string;
  /** The agent's own folder: work files of items (kept until ingested, so a restart resumes) and upload state. */
  stateDir: string;
  /** Threads ffmpeg may use for one item. */
  threads?: number;
  /** ffprobe, or what the agent already knows of the unchanged file. */
  probe?: (file: string, signal: AbortSignal) => Promise<MediaProbe | null>;
};

const line = (text: string) => `${new Date().toISOString()} ${text}\n`;
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const round = (n: number) => Math.round(n * 100) / 100;
const describe = (info: MediaProbe) =>
  [
    info.hasVideo ? `video ${info.videoCodec} ${info.width}x${info.height} @ ${info.fps} fps` : 'no video',
    info.hasAudio ? `audio ${info.audioCodec}` : 'no audio',
    info.duration != null ? `${round(info.duration)} s` : 'duration unknown',
  ].join(', ');

/** Thrown when the item is no longer the agent's (aborted, taken out of the queue, duplicated). */
class Stopped extends Error {}
/** A report the cloud did not take (unreachable, or failing itself): the item is to be taken up again. */
class ReportLost extends Error {}

/** A report whose failure is the cloud's or the network's (not a refusal of what it said) is lost. */
const reported = <T>(sending: Promise<T>): Promise<T> =>
  sending.catch((error: unknown) => {
    if (error instanceof CloudError && error.status < 500) throw error;
    throw new ReportLost(error instanceof Error ? error.message : String(error));
  });

/**
 * Reports an item's percentage to the cloud, throttled, at least every REPORT_EVERY_MS while work runs, and
 * stops the work (through `controller`) as soon as the cloud says the item is no longer ingesting.
 */
class ProgressReporter {
  percent = 0;
  private sent = -1;
  private log = '';
  private timer: NodeJS.Timeout;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly cloud: CloudClient,
    private readonly itemId: number,
    private readonly controller: AbortController,
  ) {
    this.timer = setInterval(() => void this.flush(true), REPORT_EVERY_MS);
  }

  set(percent: number) {
    this.percent = Math.max(this.percent, Math.min(99, Math.floor(percent)));
  }

  note(text: string) {
    this.log += line(text);
  }

  /** Sends the percentage and pending log lines; `always` also when nothing changed (the abort check). */
  flush(always = false) {
    if (this.controller.signal.aborted) return this.sending;
    if (!always && this.percent === this.sent && !this.log) return this.sending;
    const change = {
      status: 'ingesting' as const,
      progress: this.percent,
      ...(this.log ? { log: this.log } : {}),
    };
    this.sent = this.percent;
    this.log = '';
    this.sending = this.sending
      .then(() => this.cloud.reportProgress(this.itemId, change))
      .then((answer) => {
        if (answer.status !== 'ingesting') this.controller.abort(new Stopped(`The item is ${answer.status}`));
      })
      .catch((error: unknown) => {
        if (error instanceof CloudError && (error.status === 409 || error.status === 404))
          this.controller.abort(new Stopped(error.message));
      });
    return this.sending;
  }

  /** The pending log lines, for the final report. */
  takeLog() {
    const text = this.log;
    this.log = '';
    return text;
  }

  async stop() {
    clearInterval(this.timer);
    await this.sending;
  }
}

/**
 * Ingests one queue item (DESIGN "Media", spec2 §4): fetch the file from its source, hash it (the cloud
 * answers `duplicated` when the folder already holds it), probe, make the proxy of the ingest format with a
 * poster and a filmstrip, upload them (and the source when the folder keeps it) resumably, then report
 * `ingested`. A file gone is `missing`; a failure is `failed` with its reason in the log. A person's abort
 * (seen at the next report) kills ffmpeg and ends the uploads. Answers whether the item's outcome is with the
 * cloud (reported, or decided there); when not (the agent is stopping, or a report did not get through) the
 * item is still `ingesting` in the cloud with nobody on it: its work files stay under the state folder, so
 * taking it up again reuses a finished proxy and resumes its uploads.
 */
export const ingestItem = async (
  env: IngestEnvironment,
  item: AgentQueueItem,
  endpoint: AgentEndpoint,
  source: FileSource,
  stopping: AbortSignal,
  options: { resumed?: 'restart' | 'retry' } = {},
): Promise<boolean> => {
  const controller = new AbortController();
  const onStop = () => controller.abort(new Stopped('The agent is stopping'));
  const signal = controller.signal;
  const { cloud } = env;
  const started = performance.now();
  const settings = endpoint.ingest ?? DEFAULT_INGEST;
  const workDir = path.join(env.stateDir, 'work', String(item.id));
  let progress: ProgressReporter | undefined;
  let fetched: Awaited<ReturnType<FileSource['fetch']>> | undefined;
  /** Whether the cloud has the item's outcome: reported by us, or decided there (abort, duplicated). */
  let settled = false;
  /** What the agent was doing, for the log of a failure. */
  let step = 'starting';
  const finish = async (change: Parameters<CloudClient['reportProgress']>[1]) => {
    await progress?.stop();
    if (signal.aborted) {
      settled = !stopping.aborted;
      return;
    }
    await reported(
      cloud.reportProgress(item.id, { ...change, log: (progress?.takeLog() ?? '') + (change.log ?? '') }),
    );
    settled = true;
  };
  const begun = {
    restart: 'taken up again after an agent restart',
    retry: 'taken up again (its last report did not reach the cloud)',
  }[options.resumed ?? 'restart'];
  try {
    if (stopping.aborted) return false;
    stopping.addEventListener('abort', onStop, { once: true });
    await reported(
      cloud.reportProgress(item.id, {
        status: 'ingesting',
        progress: 0,
        log: line(
          `Ingest of ${item.sourceName} ${options.resumed ? begun : 'started'} on ${endpoint.name} (format ${settings.format}, ${[settings.makeProxy ? 'proxy' : 'no proxy', settings.keepSource ? 'source kept' : 'source not kept'].join(', ')})`,
        ),
      }),
    );
    const reporter = new ProgressReporter(cloud, item.id, controller);
    progress = reporter;
    step = 'reading the file';
    await fs.promises.mkdir(workDir, { recursive: true });
    fetched = await source.fetch(item.sourceName, { tempDir: workDir, signal });
    if (!fetched) {
      await finish({ status: 'missing', error: 'The file is no longer there', log: line('File missing') });
      return settled;
    }
    const file = fetched.path;
    const { size: fileSize } = await fs.promises.stat(file);
    // The hash runs beside the probe and the proxy: the cloud's answer (duplicated) stops them when it comes.
    const hashing = contentHash(file, { signal }).then(async (hash) => {
      const answer = await reported(
        cloud.reportProgress(item.id, {
          status: 'ingesting',
          progress: reporter.percent,
          contentHash: hash,
          log: line(`Read ${fileSize} bytes in ${seconds(started)}; SHA-256 ${hash}`),
        }),
      );
      if (answer.status !== 'ingesting') controller.abort(new Stopped(`The item is ${answer.status}`));
    });
    // Seen when awaited below; until then a failure must not count as unhandled.
    hashing.catch(() => undefined);
    step = 'probing';
    const info = await (env.probe ? env.probe(file, signal) : probe(file, { signal }));
    if (!info) {
      await hashing;
      if (item.forced) {
        await finish({
          status: 'ingested',
          fileSize,
          log: line('Forced past the media check: not a media file, no proxy made'),
        });
        return settled;
      }
      await finish({
        status: 'failed',
        error: 'Not a media file',
        log: line('ffprobe found no audio or video'),
      });
      return settled;
    }
    reporter.note(`Probed: ${describe(info)}`);
    reporter.set(STEPS.probed);
    const uploads: { file: string; rendition: ItemFileRendition }[] = [];
    const plan = proxyPlan(
      info.hasVideo && info.width && info.height ? { width: info.width, height: info.height } : null,
      settings.format,
      settings.maxResolution,
    );
    const poster = path.join(workDir, 'poster.jpg');
    const filmstrip = path.join(workDir, 'filmstrip.jpg');
    if (settings.makeProxy) {
      const proxy = path.join(workDir, 'proxy.mp4');
      if (!fs.existsSync(proxy)) {
        step = 'making the proxy';
        const at = performance.now();
        await makeProxy({
          input: file,
          output: proxy,
          plan,
          duration: info.duration,
          hasVideo: info.hasVideo,
          hasAudio: info.hasAudio,
          signal,
          threads: env.threads,
          thumbnails: { poster, filmstrip },
          onProgress: (p) => reporter.set(STEPS.probed + ((STEPS.transcoded - STEPS.probed) * p) / 100),
        });
        reporter.note(
          info.hasVideo
            ? `Proxy made in ${seconds(at)}: H.264 ${plan.width}x${plan.height} @ ${plan.fps} fps${info.hasAudio ? ' + AAC' : ', no sound'}, with its poster and filmstrip`
            : `Proxy made in ${seconds(at)}: AAC audio`,
        );
      } else reporter.note('Proxy made by an earlier attempt: reused');
      uploads.push({ file: proxy, rendition: 'proxy' });
    }
    if (info.hasVideo) {
      // Made with the proxy; an archive's from its source, and a reused proxy's again if they are not there.
      step = 'making thumbnails';
      const at = performance.now();
      const input = settings.makeProxy ? path.join(workDir, 'proxy.mp4') : file;
      if (!fs.existsSync(poster)) {
        await makePoster({ input, output: poster, duration: info.duration, signal });
        reporter.note(`Poster made in ${seconds(at)}`);
      }
      uploads.push({ file: poster, rendition: 'poster' });
      if (settings.makeProxy) {
        if (!fs.existsSync(filmstrip)) {
          await makeFilmstrip({ input, output: filmstrip, duration: info.duration, signal });
          reporter.note(`Filmstrip made in ${seconds(at)}`);
        }
        uploads.push({ file: filmstrip, rendition: 'filmstrip' });
      }
    }
    // Nothing is uploaded, nor the item's thumbnail shown, before the cloud has seen the content.
    step = 'hashing';
    await hashing;
    if (info.hasVideo) {
      // The queue shows the poster as the item's thumbnail.
      await cloud.uploadThumbnail(item.id, await fs.promises.readFile(poster));
    }
    reporter.set(STEPS.thumbnails);
    if (settings.keepSource) uploads.push({ file, rendition: 'source' });
    step = 'uploading';
    const apiVersion = await cloud.ingestApiVersion();
    const sizes = await Promise.all(uploads.map(async (u) => (await fs.promises.stat(u.file)).size));
    const total = sizes.reduce((a, b) => a + b, 0) || 1;
    let done = 0;
    const uploadStarted = performance.now();
    for (const [index, upload] of uploads.entries()) {
      await uploadItemFile({
        cloudUrl: env.cloudUrl,
        token: env.token,
        apiVersion,
        file: upload.file,
        queueItemId: item.id,
        rendition: upload.rendition,
        stateDir: env.stateDir,
        signal,
        onProgress: (sent) =>
          reporter.set(STEPS.thumbnails + ((STEPS.uploaded - STEPS.thumbnails) * (done + sent)) / total),
      });
      done += sizes[index] ?? 0;
    }
    if (uploads.length)
      reporter.note(
        `Uploaded ${uploads.map((u) => u.rendition).join(', ')} (${done} bytes) in ${seconds(uploadStarted)}`,
      );
    await finish({
      status: 'ingested',
      duration: info.duration,
      fileSize,
      proxyWidth: settings.makeProxy && info.hasVideo ? plan.width : null,
      proxyHeight: settings.makeProxy && info.hasVideo ? plan.height : null,
      fps: settings.makeProxy && info.hasVideo ? plan.fps : null,
      sourceWidth: info.width,
      sourceHeight: info.height,
      log: line(`Ingested in ${seconds(started)}`),
    });
    return settled;
  } catch (error) {
    await progress?.stop();
    if (signal.aborted) {
      // A person's abort or another decision of the cloud: its status stands. Unless the agent is stopping.
      settled = !stopping.aborted;
      return settled;
    }
    // The cloud did not take a report: the item is taken up again at a next round (its work files kept).
    if (error instanceof ReportLost) return false;
    // The item is no longer this agent's (a person took it out of the queue meanwhile).
    if (error instanceof CloudError && (error.status === 409 || error.status === 404)) {
      settled = true;
      return settled;
    }
    const message = error instanceof Error ? error.message : String(error);
    await cloud
      .reportProgress(item.id, {
        status: 'failed',
        error: message.slice(0, 2000),
        log:
          (progress?.takeLog() ?? '') + line(`Failed while ${step}, after ${seconds(started)}: ${message}`),
      })
      .then(() => {
        settled = true;
      })
      .catch(() => undefined);
    return settled;
  } finally {
    await progress?.stop();
    stopping.removeEventListener('abort', onStop);
    await fetched?.release().catch(() => undefined);
    if (settled) await fs.promises.rm(workDir, { recursive: true, force: true });
  }
};
