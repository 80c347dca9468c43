import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { RTMP_APP } from '@media/contract';
import { type StreamSender, sendTestStream } from '@media/media-tools';
import { makeStreamWorld, type StreamWorld } from '../apps/server/test/stream-world.ts';
import { BenchmarkFailure } from './failure.ts';
import { quantile } from './server-bench.ts';

/**
 * Live latency of a recorded stream, through the real chain: a 1080p stream pushed over RTMP at real time
 * (sendTestStream) at a real in-process edge agent recording it (RtmpPushEndpoint of a stream ingest service,
 * the server tests' makeStreamWorld), which uploads each finished segment to the real cloud (PGlite); a
 * signed-in viewer polls the HLS playlist over HTTP every POLL_MS. At each poll the live edge is the sum of
 * the listed segments' durations (the recording's time of the last frame listed); the upstream delay at wall
 * time W is W - (wall time at which the recording's time 0 was pushed) - live edge.
 */
const LATENCY_SECONDS = Number(process.env.BENCH_STREAMS_LATENCY_SECONDS ?? 25);
const POLL_MS = 150;
/** How often the recording's segment list is read for the calibration (see `calibrate`). */
const LIST_POLL_MS = 20;
/** hls.js's `liveSyncDurationCount` default: a live stream starts this many target durations behind its edge. */
const HLS_JS_LIVE_SYNC_COUNT = 3;
const LISTEN_TIMEOUT_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port nobody listens on now, for a recording to listen on. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

/** Rows of cells as aligned columns: the first left-aligned, the others right-aligned. */
export const table = (header: string[], rows: string[][]) => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [header, ...rows].map(line).join('\n');
};

/** Whether something listens on TCP `port` (from /proc/net/tcp*: nothing connects to it to find out). */
const listening = (port: number) => {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return ['/proc/net/tcp', '/proc/net/tcp6'].some((file) => {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    return text.split('\n').some((row) => {
      const [, local, , state] = row.trim().split(/\s+/);
      return local?.endsWith(hex) && state === '0A';
    });
  });
};

type Poll = { at: number; edge: number; segments: number; target: number };

export type LatencyMeasured = {
  segmentSeconds: number;
  /** Upstream delays (pushed frame to listed in the playlist), seconds, one per poll, sorted. */
  delays: number[];
  /** The player's hold-back, seconds: hls.js's default count of the playlist's target duration. */
  holdBack: number;
  target: number;
  segments: number;
  /** After how many seconds of the sender the first segment was in the playlist. */
  firstAfter: number;
  /** When the recording's time 0 was pushed, seconds after the sender was started. */
  offset: number;
  /** How much later than the earliest the other segment ends reached the recording (the sender's drift). */
  drift: number;
};

/**
 * The wall time (performance.now(), ms) at which the recording's time 0 was pushed, and the drift. The agent's
 * recording ffmpeg lists each segment it finishes (`list-0.csv` in its folder: name, start, end in the
 * recording's time) as soon as the first frame of the next one arrives, so a line first seen at wall time W
 * says that the frame at `end - start0` was pushed no later than W. Read every LIST_POLL_MS, the earliest
 * W - (end - start0) over the segments is the anchor: late by the read interval and the push over loopback
 * (some ms), which makes the delays a little shorter than they are, never longer. (The segments' PTS cannot
 * place the recording in the sender's time: ffmpeg starts both timelines at 0.) The spread of W - (end - start0)
 * is the drift: how far behind real time the sender (a camera's encoder at 1080p on this machine) fell.
 */
const calibrate = (seen: Map<string, number>) => {
  const rows = [...seen].map(([row, at]) => {
    const [, start, end] = row.split(',');
    return { start: Number(start), end: Number(end), at };
  });
  const start0 = Math.min(...rows.map((r) => r.start));
  const anchors = rows.map((r) => r.at - (r.end - start0) * 1000);
  const zero = Math.min(...anchors);
  return { zero, drift: (Math.max(...anchors) - zero) / 1000 };
};

/** One stream recorded by a real agent with segments of `segmentSeconds`, its playlist polled as a viewer. */
export const measureLatency = async (
  segmentSeconds: number,
  stream: { size: string; frameRate: number; bitrate: string },
): Promise<LatencyMeasured> => {
  let world: StreamWorld | undefined;
  let sender: StreamSender | undefined;
  let watching = true;
  try {
    world = await makeStreamWorld(`bench-latency-${segmentSeconds}s`, {
      segmentSeconds: String(segmentSeconds),
    });
    const { x } = world;
    const port = await freePort();
    const streamKey = `bench-${segmentSeconds}s`;
    const endpointId = await world.stream('Bench push', 'RtmpPushEndpoint', {
      port: String(port),
      streamKey,
    });
    const agent = x.agent();
    // The first round registers, the second offers the item that waits for Start.
    await agent.tick();
    await agent.tick();
    const item = await world.waitingItem(endpointId);
    const started = await world.act(x.w.accountManager.client, item.id, { action: 'start' });
    if (started.status !== 200) throw new BenchmarkFailure(`Start was refused: ${started.status}`);
    await agent.tick();
    // The agent's own check of the port is over with the round: what listens now is its recording ffmpeg. The
    // sender starts once it does, so its first try reaches it.
    const listenFrom = performance.now();
    while (!listening(port)) {
      if (performance.now() - listenFrom > LISTEN_TIMEOUT_MS)
        throw new BenchmarkFailure(`the agent did not listen on port ${port} after Start`);
      await sleep(20);
    }

    const senderStart = performance.now();
    sender = sendTestStream(
      { kind: 'rtmp', url: `rtmp://127.0.0.1:${port}/${RTMP_APP}/${streamKey}` },
      { ...stream, reconnect: true },
    );
    const until = senderStart + LATENCY_SECONDS * 1000;

    // The recording's segment list, each line with the wall time it was first seen (see `calibrate`).
    const list = path.join(x.work, 'state', 'work', `stream-${item.id}`, 'list-0.csv');
    const seen = new Map<string, number>();
    const watch = (async () => {
      while (watching) {
        const text = await fs.promises.readFile(list, 'utf8').catch(() => '');
        const now = performance.now();
        for (const row of text.split('\n').filter((r) => r.includes(',')))
          if (!seen.has(row)) seen.set(row, now);
        await sleep(LIST_POLL_MS);
      }
    })();

    // The viewer: the stream's node appears with its first segment; its playlist is then read over HTTP.
    const cookie = [...x.w.editor.client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let mediaId: number | undefined;
    const polls: Poll[] = [];
    while (performance.now() < until) {
      mediaId ??= (await x.nodeOf(item.id))?.media.id;
      if (mediaId !== undefined) {
        const response = await fetch(`${x.cloudUrl}/api/media/${mediaId}/live.m3u8`, {
          headers: { cookie },
        });
        const at = performance.now();
        if (response.status !== 200)
          throw new BenchmarkFailure(`the viewer's playlist answered ${response.status}`);
        const text = await response.text();
        if (text.includes('#EXT-X-DISCONTINUITY'))
          throw new BenchmarkFailure('the push was interrupted (a discontinuity in the playlist)');
        const durations = [...text.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => Number(m[1]));
        const target = Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(text)?.[1]);
        if (durations.length > 0)
          polls.push({
            at,
            edge: durations.reduce((sum, d) => sum + d, 0),
            segments: durations.length,
            target,
          });
      }
      await sleep(POLL_MS);
    }
    watching = false;
    await watch;
    const last = polls.at(-1);
    if (!last || seen.size === 0) {
      const row = await world.row(item.id);
      throw new BenchmarkFailure(
        `no live segment of the ${segmentSeconds} s recording reached the playlist in ${LATENCY_SECONDS} s ` +
          `(${seen.size} finished on the edge; item ${row.status}: ${(row.log ?? '').trim().split('\n').at(-1)})`,
      );
    }
    const { zero, drift } = calibrate(seen);
    return {
      segmentSeconds,
      delays: polls.map((p) => (p.at - zero) / 1000 - p.edge).sort((a, b) => a - b),
      holdBack: HLS_JS_LIVE_SYNC_COUNT * last.target,
      target: last.target,
      segments: last.segments,
      firstAfter: ((polls[0]?.at ?? 0) - senderStart) / 1000,
      offset: (zero - senderStart) / 1000,
      drift,
    };
  } finally {
    // Whatever happened, the sender, the agent (and its recording ffmpeg) and the cloud end here.
    watching = false;
    await sender?.stop().catch(() => undefined);
    await world?.x.close();
  }
};

/** The latency half's lines: per segment length, upstream delay, the player's hold-back and their sum. */
export const printLatency = (results: LatencyMeasured[]) => {
  const s = (seconds: number) => `${seconds.toFixed(2)} s`;
  const rows = results.map((r) => {
    const median = quantile(r.delays, 0.5);
    const worst = r.delays.at(-1) ?? 0;
    return [
      `${r.segmentSeconds} s`,
      s(median),
      s(worst),
      `${r.holdBack} s`,
      s(median + r.holdBack),
      s(worst + r.holdBack),
      `${r.delays.length}`,
    ];
  });
  console.log(
    `\nlive latency: the same stream recorded by a real edge agent, each segment uploaded to the cloud (PGlite), ` +
      `the playlist read over HTTP by a signed-in viewer every ${POLL_MS} ms for ${LATENCY_SECONDS} s of stream:`,
  );
  console.log(
    table(
      ['segment', 'upstream median', 'upstream worst', 'hold-back', 'shown median', 'shown worst', 'polls'],
      rows,
    ),
  );
  console.log(
    '  upstream: pushed frame to listed in the playlist (the frame at its live edge); shown: upstream plus the ' +
      `hold-back, the latency of the frame a player shows. The hold-back is hls.js's default ` +
      `(liveSyncDurationCount ${HLS_JS_LIVE_SYNC_COUNT} x the playlist's target duration), not measured in a browser`,
  );
  for (const r of results)
    console.log(
      `  ${r.segmentSeconds} s segments: first in the playlist ${r.firstAfter.toFixed(1)} s after the sender started, ` +
        `${r.segments} listed at the end (target ${r.target} s); recording time 0 pushed ${r.offset.toFixed(2)} s ` +
        `after the sender started, sender drift ${r.drift.toFixed(2)} s`,
    );
};
