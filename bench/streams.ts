import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RTMP_APP } from '@media/contract';
import {
  type Recording,
  recordedBytes,
  recordedSegments,
  recordStream,
  type StreamInput,
  type StreamSender,
  sendTestStream,
  streamInputAddress,
} from '@media/media-tools';
import { BenchmarkFailure } from './failure.ts';
import { freePort, type LatencyMeasured, measureLatency, printLatency, table } from './stream-latency.ts';

/**
 * The CPU an edge agent's recording costs per live stream: one 1920x1080 25 fps stream (BENCH_STREAMS_BITRATE,
 * 6M) is pushed over RTMP at the agent's recording ffmpeg (recordStream: copied into MPEG-TS segments, not
 * encoded), once per segment length (2 and 6 s), one after another. After the first picture and
 * BENCH_STREAMS_WARMUP (3) s, the CPU seconds of the recording ffmpeg are read from /proc over a window of
 * BENCH_STREAMS_WINDOW (15) s, and those of the sender (what a camera's encoder does) beside them.
 * Then the live latency, per segment length: the same stream pushed at a real edge agent that uploads its
 * segments to a real cloud, whose playlist a viewer polls (stream-latency.ts, BENCH_STREAMS_LATENCY_SECONDS).
 */
const SEGMENT_LENGTHS = [2, 6];
const SIZE = '1920x1080';
const FRAME_RATE = 25;
const BITRATE = process.env.BENCH_STREAMS_BITRATE ?? '6M';
const WARMUP_SECONDS = Number(process.env.BENCH_STREAMS_WARMUP ?? 3);
const WINDOW_SECONDS = Number(process.env.BENCH_STREAMS_WINDOW ?? 15);
const SIGNAL_TIMEOUT_MS = 20_000;
/** Clock ticks per second of /proc/{pid}/stat (`getconf CLK_TCK`, 100 on Linux). */
const CLOCK_TICKS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pid of this process's child whose command line holds `text` (each child's is unique here). */
const childPid = (text: string) => {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) return Number(entry);
    } catch {
      // The process ended while it was looked at.
    }
  }
  return undefined;
};

/** CPU seconds (user and system) a running process has used so far, from /proc/{pid}/stat. */
const cpuSeconds = (pid: number, what: string) => {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    throw new BenchmarkFailure(`the ${what} ffmpeg (pid ${pid}) ended during the measurement`);
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
};

/** Waits until the recording has its first picture; a BenchmarkFailure after SIGNAL_TIMEOUT_MS. */
const firstPicture = async (recording: Recording, sender: StreamSender) => {
  let senderEnded = false;
  void sender.ended.then(() => {
    senderEnded = true;
  });
  const started = performance.now();
  while (!recording.receiving()) {
    if (performance.now() - started > SIGNAL_TIMEOUT_MS) {
      const { stderr } = senderEnded ? await sender.ended : { stderr: '' };
      throw new BenchmarkFailure(
        `no signal reached the recording in ${SIGNAL_TIMEOUT_MS / 1000} s${stderr ? `; the sender said: ${stderr.trim()}` : ''}`,
      );
    }
    await sleep(100);
  }
  return (performance.now() - started) / 1000;
};

type Measured = {
  segmentSeconds: number;
  signalAfter: number;
  wall: number;
  agentCpu: number;
  senderCpu: number;
  recordedDuring: number;
  segments: number;
  bytes: number;
};

/** One stream recorded with segments of `segmentSeconds`: its CPU over the window, and what it wrote. */
const measureOne = async (work: string, segmentSeconds: number): Promise<Measured> => {
  const dir = path.join(work, `record-${segmentSeconds}s`);
  const streamKey = `bench-${process.pid}-${segmentSeconds}s`;
  const input: StreamInput = { kind: 'rtmp', port: await freePort(), app: RTMP_APP, streamKey };
  const abort = new AbortController();
  let recording: Recording | undefined;
  let sender: StreamSender | undefined;
  try {
    recording = await recordStream({ dir, segmentSeconds, input }, abort.signal);
    sender = sendTestStream(
      { kind: 'rtmp', url: streamInputAddress(input) },
      { size: SIZE, frameRate: FRAME_RATE, bitrate: BITRATE, reconnect: true },
    );
    const signalAfter = await firstPicture(recording, sender);
    await sleep(WARMUP_SECONDS * 1000);
    // The recording's command line names its folder; the sender's names the stream key (the recording's
    // names it too, but only the sender's pushes to 127.0.0.1).
    const agentPid = childPid(dir);
    const senderPid = childPid(`rtmp://127.0.0.1:${input.port}/`);
    if (!agentPid || !senderPid) throw new BenchmarkFailure('cannot find the recording or the sender ffmpeg');
    const before = {
      agent: cpuSeconds(agentPid, 'recording'),
      sender: cpuSeconds(senderPid, 'sender'),
      recorded: recording.elapsed(),
    };
    const started = performance.now();
    await sleep(WINDOW_SECONDS * 1000);
    const after = {
      agent: cpuSeconds(agentPid, 'recording'),
      sender: cpuSeconds(senderPid, 'sender'),
      recorded: recording.elapsed(),
    };
    const wall = (performance.now() - started) / 1000;
    await sender.stop();
    await recording.stop();
    const segments = (await recordedSegments(dir)).length;
    const bytes = await recordedBytes(dir);
    if (segments === 0 || bytes === 0)
      throw new BenchmarkFailure(
        `the ${segmentSeconds} s segment recording wrote nothing (${segments} segments)`,
      );
    return {
      segmentSeconds,
      signalAfter,
      wall,
      agentCpu: after.agent - before.agent,
      senderCpu: after.sender - before.sender,
      recordedDuring: after.recorded - before.recorded,
      segments,
      bytes,
    };
  } finally {
    // Whatever happened, neither ffmpeg outlives its measurement.
    abort.abort(new Error('the benchmark ended'));
    await sender?.stop().catch(() => undefined);
    await recording?.ended.catch(() => undefined);
  }
};

export const runStreamsBenchmark = async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-streams-'));
  try {
    const results: Measured[] = [];
    // One at a time: the sender's encode alone fills much of a small machine.
    for (const segmentSeconds of SEGMENT_LENGTHS) results.push(await measureOne(work, segmentSeconds));

    const percent = (cpu: number, wall: number) => `${((cpu / wall) * 100).toFixed(1)}%`;
    const rows = results.map((r) => [
      `${r.segmentSeconds} s`,
      percent(r.agentCpu, r.wall),
      percent(r.senderCpu, r.wall),
      (r.agentCpu / r.senderCpu).toFixed(3),
      `${r.recordedDuring.toFixed(1)} s`,
      String(r.segments),
      `${(r.bytes / 1024 / 1024).toFixed(1)} MB`,
    ]);
    const header = ['segment', 'agent cpu', 'sender cpu', 'agent/sender', 'recorded', 'segments', 'written'];
    console.log(
      `one ${SIZE} ${FRAME_RATE} fps stream (${BITRATE}) pushed over RTMP, recorded by copy into MPEG-TS segments;`,
    );
    console.log(
      `cpu as % of one core over ${WINDOW_SECONDS} s after the first picture and ${WARMUP_SECONDS} s of warm-up (${os.availableParallelism()} cores):`,
    );
    console.log(table(header, rows));
    console.log(
      `  first picture after ${results.map((r) => `${r.signalAfter.toFixed(1)} s`).join(', ')}; sender cpu is its generated picture and encode (a camera's work)`,
    );

    // The latency half: the same stream through the real agent, cloud and viewer (stream-latency.ts).
    const latencies: LatencyMeasured[] = [];
    for (const segmentSeconds of SEGMENT_LENGTHS)
      latencies.push(
        await measureLatency(segmentSeconds, { size: SIZE, frameRate: FRAME_RATE, bitrate: BITRATE }),
      );
    printLatency(latencies);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
};
