import fs from 'node:fs';
import path from 'node:path';
import type { AgentEndpoint, AgentQueueItem } from '@media/contract';
import {
  joinSegments,
  type Recording,
  type RecordingFormat,
  recordedBytes,
  recordStream,
  type StreamInput,
  StreamRefused,
} from '@media/media-tools';
import { type CloudClient, CloudError } from './cloud.ts';
import { type IngestEnvironment, ingestItem } from './ingest.ts';
import { LiveUploader } from './live-upload.ts';
import { positive } from './options.ts';
import type { FileSource } from './sources/index.ts';
import { type SignalState, streamInputOf } from './stream-endpoints.ts';

/** How often a recording reports its seconds and bytes, and hears whether a person asked it to stop. */
const RECORDING_REPORT_MS = 500;
/** How long a signal may be gone before the recording ends with what it has (the service's default). */
const SIGNAL_LOSS_SECONDS = 60;
const line = (text: string) => `${new Date().toISOString()} ${text}\n`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The joined recording as the file source the normal ingest reads from. */
const recordedFile = (file: string): FileSource => ({
  list: async () => [],
  exists: async () => fs.existsSync(file),
  fetch: async () => (fs.existsSync(file) ? { path: file, release: async () => undefined } : undefined),
  probeInput: async () => file,
  health: async () => ({ online: true, status: 'ok', message: 'Recorded' }),
  close: async () => undefined,
});

/** The item is no longer recording for this agent (a person's decision in the cloud, or the agent stopping). */
class Gone extends Error {}

/**
 * Records a stream item (DESIGN "Media", Streams; spec2 §4): ffmpeg generates (test stream), listens for
 * (RTMP, SRT listener), calls (SRT caller) or pulls (HLS) the stream into segments under `work/stream-{id}`;
 * every half second the item gets the seconds and bytes recorded with `recording: true`, and the answer says
 * whether a person pressed Stop. A signal that goes away is a gap: ffmpeg listens or pulls again, and only a
 * loss longer than the service's `signalLossSeconds` ends the recording (with what it has). On Stop ffmpeg
 * ends cleanly, the segments are joined into one file of the service's recording format and handed to the
 * normal ingest (proxy, thumbnails, upload, node in the endpoint's arrivals folder); `keepRecordings` keeps
 * the file on the edge too. An agent that stops while recording leaves the segments: taken up again after its
 * restart, the recording goes on into the same folder (the time it was down is a gap in it). Answers whether
 * the cloud has the item's outcome.
 */
export const recordStreamItem = async (
  env: IngestEnvironment,
  item: AgentQueueItem,
  endpoint: AgentEndpoint,
  stopping: AbortSignal,
  options: {
    resumed?: 'restart' | 'retry';
    signal?: SignalState;
    /** Why the recording should end now (its endpoint switched offline), asked twice a second. */
    endWanted?: () => string | undefined;
  } = {},
): Promise<boolean> => {
  const schedule = item.schedule ?? null;
  const { cloud } = env;
  const dir = path.join(env.stateDir, 'work', `stream-${item.id}`);
  const controller = new AbortController();
  const onStop = () => controller.abort(new Gone('The agent is stopping'));
  if (stopping.aborted) return false;
  stopping.addEventListener('abort', onStop, { once: true });
  const recorder: Recorder = { signal: options.signal ?? { receiving: false }, endWanted: options.endWanted };
  const format = recordingFormatOf(endpoint);
  let settled = false;
  try {
    const input = streamInputOf(endpoint);
    if ('error' in input) throw new Error(input.error);
    const resumed = options.resumed !== undefined && fs.existsSync(dir);
    const endAt = await scheduledEnd(dir, schedule, resumed);
    const stopAsked = await recordUntilStop(
      cloud,
      item,
      endpoint,
      input,
      dir,
      controller,
      resumed,
      recorder,
      endAt,
    );
    if (!stopAsked) {
      settled = !stopping.aborted;
      return settled;
    }
    const output = path.join(dir, `recording.${format}`);
    if (!fs.existsSync(output)) {
      const parts = await joinSegments({
        dir,
        output,
        format,
        recordedAt: new Date(),
        signal: controller.signal,
      }).catch((error: unknown) => {
        throw new Error(
          messageOf(error) === 'Nothing was recorded'
            ? `Nothing was recorded: no signal came from ${endpoint.name}`
            : messageOf(error),
        );
      });
      await cloud.reportProgress(item.id, {
        status: 'ingesting',
        recording: false,
        log: line(
          `Recording stopped: ${parts} segment${parts === 1 ? '' : 's'} joined into one ${format} file`,
        ),
      });
    }
    // Kept before the ingest: the edge's copy is there even when the ingest fails.
    if (endpoint.serviceOptions.keepRecordings === 'true') await keepRecording(env, item, output);
    settled = await ingestItem(env, item, endpoint, recordedFile(output), stopping, options);
    return settled;
  } catch (error) {
    if (controller.signal.aborted) {
      settled = !stopping.aborted;
      return settled;
    }
    if (error instanceof CloudError && (error.status === 404 || error.status === 409)) {
      settled = true;
      return settled;
    }
    await cloud
      .reportProgress(item.id, {
        status: 'failed',
        recording: false,
        error: messageOf(error).slice(0, 2000),
        log: line(`Recording failed: ${messageOf(error)}`),
      })
      .then(() => {
        settled = true;
      })
      .catch(() => undefined);
    return settled;
  } finally {
    stopping.removeEventListener('abort', onStop);
    const left = recorder.recording;
    if (left) await left.ended.catch(() => undefined);
    if (settled) await fs.promises.rm(dir, { recursive: true, force: true });
  }
};

/**
 * When a schedule's recording ends, kept in its folder at its start: the item's duration then counts the
 * seconds recorded, so after an agent restart the end comes from the folder.
 */
const scheduledEnd = async (
  dir: string,
  schedule: AgentQueueItem['schedule'],
  resumed: boolean,
): Promise<number | undefined> => {
  const file = path.join(dir, 'ends-at');
  if (resumed) {
    const kept = Number(await fs.promises.readFile(file, 'utf8').catch(() => ''));
    if (kept > 0) return kept;
  }
  if (!schedule?.endAt) return undefined;
  const endAt = Date.parse(schedule.endAt);
  await fs.promises.mkdir(dir, { recursive: true });
  await fs.promises.writeFile(file, String(endAt));
  return endAt;
};

/** The service's recording format: MP4 unless it asks for MPEG-TS or MXF. */
const recordingFormatOf = (endpoint: AgentEndpoint): RecordingFormat => {
  const format = endpoint.serviceOptions.recordingFormat;
  return format === 'ts' || format === 'mxf' ? format : 'mp4';
};

/** Keeps a copy of an ingested recording in the agent's `recordings` folder, under the item's name. */
const keepRecording = async (env: IngestEnvironment, item: AgentQueueItem, file: string) => {
  const folder = path.join(env.stateDir, 'recordings');
  await fs.promises.mkdir(folder, { recursive: true });
  const name = `${item.sourceName.replace(/[/\\\0]/g, '_')}${path.extname(file)}`;
  await fs.promises.copyFile(file, path.join(folder, name));
};

/** The recording under way of an item, and what it hears (shared with the endpoint's report). */
type Recorder = { signal: SignalState; recording?: Recording; endWanted?: () => string | undefined };

/** How a recording's ffmpeg ended, once it has. */
type Outcome = { ended: false } | { ended: true; error?: unknown };

const outcomeOf = (recording: Recording) => {
  const outcome: { now: Outcome } = { now: { ended: false } };
  recording.ended.then(
    () => {
      outcome.now = { ended: true };
    },
    (error: unknown) => {
      outcome.now = { ended: true, error };
    },
  );
  return outcome;
};

/**
 * Records until a person's Stop (answers true, ffmpeg ended cleanly), a signal lost for longer than the limit
 * after something was recorded (answers true), or the item is no longer the agent's (answers false, ffmpeg
 * killed). A test stream that ended by itself, or a port another program holds, throws.
 */
const recordUntilStop = async (
  cloud: CloudClient,
  item: AgentQueueItem,
  endpoint: AgentEndpoint,
  input: StreamInput,
  dir: string,
  controller: AbortController,
  resumed: boolean,
  recorder: Recorder,
  endAt: number | undefined,
): Promise<boolean> => {
  const segmentSeconds = positive(endpoint.serviceOptions.segmentSeconds, 6);
  const lossLimitMs = positive(endpoint.serviceOptions.signalLossSeconds, SIGNAL_LOSS_SECONDS) * 1000;
  const elapsedFile = path.join(dir, 'elapsed');
  // What earlier runs of this recording had (an agent restart): the seconds recorded on top of them.
  let before = resumed ? positive(await fs.promises.readFile(elapsedFile, 'utf8').catch(() => ''), 0) : 0;
  if (!resumed) {
    // A fresh recording starts from an empty folder (but for the schedule's end, written just now).
    for (const name of await fs.promises.readdir(dir).catch(() => [] as string[]))
      if (name !== 'ends-at') await fs.promises.rm(path.join(dir, name), { recursive: true, force: true });
  }
  if (fs.existsSync(path.join(dir, `recording.${recordingFormatOf(endpoint)}`))) return true;
  const start = async () => {
    // A schedule's ffmpeg records no more than the time left to its end (wall clock), and ends by itself.
    const maxSeconds = endAt === undefined ? undefined : Math.max(0.5, (endAt - Date.now()) / 1000);
    const recording = await recordStream({ dir, segmentSeconds, input, maxSeconds }, controller.signal);
    recorder.recording = recording;
    recorder.signal.receiving = false;
    return { recording, outcome: outcomeOf(recording) };
  };
  // ffmpeg starts while the cloud hears of it: a schedule's first seconds are not spent on the round trip.
  let current = await start();
  const first = await cloud
    .reportProgress(item.id, {
      status: 'ingesting',
      progress: 0,
      recording: true,
      duration: before,
      log:
        line(
          resumed
            ? `Recording of ${endpoint.name} goes on after an agent restart (${before.toFixed(1)} s recorded before)`
            : `Recording of ${endpoint.name} started (${segmentSeconds} s segments)`,
        ) + (endAt ? line(`Scheduled: ends at ${new Date(endAt).toISOString()}`) : ''),
    })
    .catch(async (error: unknown) => {
      await current.recording.stop();
      throw error;
    });
  if (first.status !== 'ingesting') {
    await current.recording.stop();
    return false;
  }
  const live = new LiveUploader(cloud, item.id, dir);
  let lostSince: number | undefined = input.kind === 'test' ? undefined : Date.now();
  let heard = before > 0;
  let pending = '';
  let stop = first.stop === true;
  while (!stop) {
    // A schedule ends on its time, not at the next report after it.
    const pause =
      endAt === undefined ? RECORDING_REPORT_MS : Math.min(RECORDING_REPORT_MS, endAt - Date.now());
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, pause)));
    if (controller.signal.aborted) return false;
    const { recording, outcome } = current;
    if (recording.receiving() && !recorder.signal.receiving) {
      recorder.signal.receiving = true;
      if (heard && lostSince !== undefined)
        pending += line(`Signal back after ${((Date.now() - lostSince) / 1000).toFixed(1)} s`);
      else if (input.kind !== 'test') pending += line('Signal: recording');
      heard = true;
      lostSince = undefined;
    }
    // ffmpeg that recorded the schedule's time has ended by itself: that is the schedule's end, not a loss.
    const recordedItAll = outcome.now.ended && !outcome.now.error && recording.reachedLimit();
    if (outcome.now.ended && !recordedItAll) {
      const error = outcome.now.error;
      if (input.kind === 'test') throw error ?? new Error('The test stream ended by itself');
      if (error instanceof StreamRefused && error.reason === 'portInUse') throw error;
      if (error instanceof StreamRefused) {
        recorder.signal.refusedAt = Date.now();
        pending += line(error.message);
      } else if (recorder.signal.receiving) {
        pending += line(
          `Signal lost${error ? `: ${messageOf(error).split('\n').at(-1)}` : ''}; waiting for it`,
        );
        lostSince = Date.now();
      }
      before += recording.elapsed();
      // A playlist that is not there yet is asked for again a little later, not in a tight loop.
      if (!(error instanceof StreamRefused)) await new Promise((resolve) => setTimeout(resolve, 1000));
      if (controller.signal.aborted) return false;
      current = await start();
    }
    const lostTooLong = heard && lostSince !== undefined && Date.now() - lostSince > lossLimitMs;
    const endReason = lostTooLong
      ? `No signal for ${Math.round(lossLimitMs / 1000)} s: the recording ends with what it has`
      : endAt !== undefined && (Date.now() >= endAt || recordedItAll)
        ? 'The schedule ends'
        : recorder.endWanted?.();
    if (endReason) {
      // ffmpeg stops first: a schedule's recording is as long as asked, however slow the report is.
      await current.recording.stop();
      pending += line(endReason);
      await cloud
        .reportProgress(item.id, { status: 'ingesting', recording: true, log: pending })
        .catch(() => {
          /* the log line is a courtesy; the recording ends either way */
        });
      break;
    }
    live.sync();
    const elapsed = before + current.recording.elapsed();
    await fs.promises.writeFile(elapsedFile, String(elapsed));
    // A report that does not get through (the cloud or the network down) is sent again next time; the
    // recording goes on meanwhile.
    const answer = await cloud
      .reportProgress(item.id, {
        status: 'ingesting',
        recording: true,
        duration: Math.round(elapsed * 100) / 100,
        fileSize: await recordedBytes(dir),
        ...(pending ? { log: pending } : {}),
      })
      .catch((error: unknown) => {
        if (error instanceof CloudError && error.status < 500) throw error;
        return undefined;
      });
    if (!answer) continue;
    pending = '';
    if (answer.status !== 'ingesting') {
      controller.abort(new Gone(`The item is ${answer.status}`));
      return false;
    }
    stop = answer.stop === true;
  }
  await current.recording.stop();
  await live.settled();
  return true;
};
