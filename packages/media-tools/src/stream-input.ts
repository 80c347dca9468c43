/**
 * Where a recorded stream comes from (DESIGN "Media", Streams), and the ffmpeg arguments that read it: the
 * test stream is generated and encoded; pushed and pulled streams are copied as they arrive (no encoding, so a
 * 1080p stream costs little more than its bytes).
 */
export type StreamInput =
  | {
      kind: 'test';
      /** bars, smpte or countdown; anything else is bars. */
      pattern: string;
      frameRate: number;
      /** Picture size; small by default (the test stream is for trying the product). */
      size?: string;
    }
  /** An RTMP push the agent listens for on `port`, at `rtmp://{edge}:{port}/{app}/{streamKey}`. */
  | { kind: 'rtmp'; port: number; app: string; streamKey: string }
  /** SRT: the agent listens on `port`, or calls `host:port`; a passphrase encrypts it (10 to 64 characters). */
  | {
      kind: 'srt';
      mode: 'listener' | 'caller';
      host: string;
      port: number;
      latencyMs: number;
      passphrase: string;
    }
  /** An HLS playlist the agent pulls, from its live edge. */
  | { kind: 'hls'; url: string };

/** The picture of a test stream (the TeststreamEndpoint's `pattern` option) as an ffmpeg lavfi source. */
const PATTERNS: Readonly<Record<string, string>> = {
  bars: 'testsrc2',
  smpte: 'smptehdbars',
  countdown: 'testsrc',
};

/** The ffmpeg arguments that read a stream input and choose its codecs (before the output's). */
export const streamInputArguments = (input: StreamInput, segmentSeconds: number): string[] => {
  switch (input.kind) {
    case 'test': {
      const fps = input.frameRate > 0 && input.frameRate <= 60 ? input.frameRate : 25;
      const source = PATTERNS[input.pattern] ?? 'testsrc2';
      return [
        ...['-re', '-f', 'lavfi', '-i', `${source}=size=${input.size ?? '320x180'}:rate=${fps}`],
        ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=1000:sample_rate=48000'],
        ...['-map', '0:v', '-map', '1:a'],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
        ...['-force_key_frames', `expr:gte(t,n_forced*${segmentSeconds})`],
        ...['-c:a', 'aac', '-b:a', '96k'],
      ];
    }
    case 'rtmp':
      return [
        ...['-listen', '1', '-timeout', '-1', ...probed],
        ...['-i', `rtmp://0.0.0.0:${input.port}/${input.app}/${input.streamKey}`],
        ...copied,
      ];
    case 'srt':
      return [
        ...['-mode', input.mode, '-latency', String(Math.round(input.latencyMs * 1000)), ...probed],
        ...(input.passphrase ? ['-passphrase', input.passphrase, '-pbkeylen', '16'] : []),
        ...[
          '-f',
          'mpegts',
          '-i',
          `srt://${input.mode === 'listener' ? '0.0.0.0' : input.host}:${input.port}`,
        ],
        ...copied,
      ];
    case 'hls':
      return [...probed, '-i', input.url, ...copied];
  }
};

/** A pushed or pulled stream's first picture and first sound, copied as they are (data streams are left). */
const copied = ['-map', '0:v:0?', '-map', '0:a:0?', '-c', 'copy'];
/**
 * A network input is read for a second before the recording begins (ffmpeg's default is five: it then writes
 * five seconds at once, and the recording's clock stands still until it does).
 */
const probed = ['-analyzeduration', '1000000', '-probesize', '1000000'];

/** Where a person (or a test) sends a stream so that this input records it. */
export const streamInputAddress = (input: StreamInput, host = '127.0.0.1') => {
  switch (input.kind) {
    case 'rtmp':
      return `rtmp://${host}:${input.port}/${input.app}/${input.streamKey}`;
    case 'srt':
      return `srt://${input.mode === 'listener' ? host : input.host}:${input.port}`;
    case 'hls':
      return input.url;
    case 'test':
      return 'generated';
  }
};

/** A recording ffmpeg ended because of who sent or where it listens, with what to tell a person. */
export class StreamRefused extends Error {
  constructor(
    readonly reason: 'wrongKey' | 'portInUse',
    message: string,
  ) {
    super(message);
  }
}

/** What a line of a recording ffmpeg's stderr says of a refused push or a port it could not take. */
export const refusalIn = (input: StreamInput, stderr: string): StreamRefused | undefined => {
  // ffmpeg's RTMP listener takes any stream name and only warns of the unexpected one: the agent refuses it.
  if (input.kind === 'rtmp' && /Unexpected stream .*, expecting /.test(stderr))
    return new StreamRefused('wrongKey', 'Refused a push with a wrong stream key');
  if ((input.kind === 'rtmp' || input.kind === 'srt') && /Address already in use/i.test(stderr))
    return new StreamRefused('portInUse', `Port ${input.port} is already in use on the edge server`);
  return undefined;
};
