import type { ChildProcess } from 'node:child_process';
import { spawnTool } from './children.ts';

/** Where a generated stream goes: pushed over RTMP or SRT, or written as a live HLS playlist on disk. */
export type StreamTarget =
  | { kind: 'rtmp'; url: string }
  | { kind: 'srt'; host: string; port: number; mode: 'caller' | 'listener'; passphrase?: string }
  | { kind: 'hls'; playlist: string; segmentSeconds?: number };

export type StreamSender = {
  /** Ends the stream (the receiver sees its sender go away); resolves when ffmpeg has exited. */
  stop(): Promise<void>;
  /** Settles when ffmpeg exits; its stderr when it failed. */
  ended: Promise<{ code: number | null; stderr: string }>;
};

/**
 * Sends a generated picture (a running clock, so frames differ) and a tone in real time, H.264 and AAC, the
 * way a camera's encoder or a playout would: for tests, `bench/streams` and trying the product by hand.
 */
export const sendTestStream = (
  target: StreamTarget,
  options: {
    size?: string;
    frameRate?: number;
    seconds?: number;
    bitrate?: string;
    /** Tries again when the receiver is not there (yet), for up to a minute of trying. */
    reconnect?: boolean;
  } = {},
): StreamSender => {
  const rate = options.frameRate ?? 25;
  const hlsSegment = target.kind === 'hls' ? (target.segmentSeconds ?? 1) : 1;
  const args = [
    ...['-hide_banner', '-nostats', '-loglevel', 'error'],
    ...['-re', '-f', 'lavfi', '-i', `testsrc2=size=${options.size ?? '320x180'}:rate=${rate}`],
    ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...(options.seconds ? ['-t', String(options.seconds)] : []),
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
    ...(options.bitrate ? ['-b:v', options.bitrate] : []),
    // A key frame every second (every HLS segment): a receiver that joins (or joins again) has a picture at once.
    ...['-g', String(Math.max(1, Math.round(rate * Math.min(1, hlsSegment)))), '-c:a', 'aac', '-b:a', '96k'],
    ...outputOf(target),
  ];
  let child: ChildProcess | undefined;
  let stopped = false;
  let stderr = '';
  // Like a camera's encoder, a sender that cannot reach its receiver (not listening yet, or gone) tries again.
  const ended = (async () => {
    // Since when it has been failing: a run of more than a few seconds was connected, and the minute starts again.
    let tryingSince = Date.now();
    for (;;) {
      const started = Date.now();
      const run = spawnTool('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
      child = run;
      run.stderr.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-4000);
      });
      const code = await new Promise<number | null>((resolve) => {
        run.on('error', (error) => {
          stderr += error.message;
          resolve(null);
        });
        run.on('close', resolve);
      });
      if (Date.now() - started > 5_000) tryingSince = Date.now();
      if (stopped || code === 0 || !options.reconnect || Date.now() - tryingSince > 60_000)
        return { code, stderr };
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (stopped) return { code, stderr };
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      const running = child;
      if (running && running.exitCode === null && running.signalCode === null) running.kill('SIGINT');
      const kill = setTimeout(() => child?.kill('SIGKILL'), 5000);
      await ended.finally(() => clearTimeout(kill));
    },
    ended,
  };
};

const outputOf = (target: StreamTarget): string[] => {
  switch (target.kind) {
    case 'rtmp':
      return ['-f', 'flv', target.url];
    case 'srt':
      return [
        ...['-mode', target.mode],
        ...(target.passphrase ? ['-passphrase', target.passphrase, '-pbkeylen', '16'] : []),
        ...['-f', 'mpegts', `srt://${target.host}:${target.port}`],
      ];
    case 'hls':
      return [
        ...['-f', 'hls', '-hls_time', String(target.segmentSeconds ?? 1), '-hls_list_size', '6'],
        ...['-hls_flags', 'delete_segments+omit_endlist', target.playlist],
      ];
  }
};
