import dgram from 'node:dgram';
import net from 'node:net';
import { type AgentEndpoint, type EndpointReport, RTMP_APP, STREAM_ENDPOINT_REFUSALS } from '@media/contract';
import type { StreamInput } from '@media/media-tools';
import { positive } from './options.ts';

/** The stream endpoint types this agent records (the others are reported as errors, with the reason). */
export const RECORDED_STREAM_TYPES = [
  'TeststreamEndpoint',
  'RtmpPushEndpoint',
  'SrtEndpoint',
  'HlsEndpoint',
] as const;

export const isRecordedStreamType = (typeId: string) =>
  (RECORDED_STREAM_TYPES as readonly string[]).includes(typeId);

/** Stream keys travel in the push URL's path: letters, digits and `-_.~` only. */
const STREAM_KEY = /^[A-Za-z0-9._~-]{1,200}$/;

/** An option's value as text (number options may arrive as numbers). */
const text = (value: unknown) =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';

const portOf = (value: unknown, fallback: number): number | { error: string } => {
  const port = text(value) === '' ? fallback : Number(text(value));
  return Number.isInteger(port) && port >= 1 && port <= 65535
    ? port
    : { error: `Port ${text(value)} is not a port number (1 to 65535)` };
};

/**
 * What a stream endpoint's options say to record, or why they cannot be recorded (in words a person can act
 * on; reported as the endpoint's error).
 */
export const streamInputOf = (endpoint: AgentEndpoint): StreamInput | { error: string } => {
  const { options } = endpoint;
  switch (endpoint.typeId) {
    case 'TeststreamEndpoint':
      return {
        kind: 'test',
        frameRate: positive(options.frameRate, 25),
        pattern: text(options.pattern) || 'bars',
      };
    case 'RtmpPushEndpoint': {
      const port = portOf(options.port, 1935);
      if (typeof port !== 'number') return port;
      const streamKey = text(options.streamKey);
      if (!streamKey) return { error: 'Give the endpoint a stream key' };
      if (!STREAM_KEY.test(streamKey))
        return { error: 'A stream key holds letters, digits and - _ . ~ only' };
      return { kind: 'rtmp', port, app: RTMP_APP, streamKey };
    }
    case 'SrtEndpoint': {
      const port = portOf(options.port, 9000);
      if (typeof port !== 'number') return port;
      const mode = text(options.mode) === 'caller' ? 'caller' : 'listener';
      const host = text(options.host);
      if (mode === 'caller' && !host) return { error: 'Give the host to call (caller mode)' };
      const passphrase = text(options.passphrase);
      // libsrt takes 10 to 79 characters; ffmpeg passes on no more than 64.
      if (passphrase && (passphrase.length < 10 || passphrase.length > 64))
        return { error: 'An SRT passphrase has 10 to 64 characters' };
      return { kind: 'srt', mode, host, port, latencyMs: positive(options.latencyMs, 120), passphrase };
    }
    case 'HlsEndpoint': {
      const url = text(options.url);
      let parsed: URL | undefined;
      try {
        parsed = new URL(url);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !['http:', 'https:'].includes(parsed.protocol))
        return { error: `The playlist URL "${url}" is not an http(s) address` };
      return { kind: 'hls', url: parsed.href };
    }
    default:
      return {
        error:
          STREAM_ENDPOINT_REFUSALS[endpoint.typeId] ??
          `This agent cannot record ${endpoint.typeId} endpoints`,
      };
  }
};

/** Whether another program holds a port the endpoint listens on (TCP for RTMP, UDP for SRT). */
const portTaken = (port: number, protocol: 'tcp' | 'udp') =>
  new Promise<boolean>((resolve) => {
    if (protocol === 'tcp') {
      const server = net.createServer();
      server.once('error', () => resolve(true));
      server.listen(port, '0.0.0.0', () => server.close(() => resolve(false)));
      return;
    }
    const socket = dgram.createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(true);
    });
    socket.bind(port, '0.0.0.0', () => socket.close(() => resolve(false)));
  });

/**
 * Whether a stream endpoint that is not recording could record now: its port is free (RTMP, SRT listener) or
 * its playlist answers (HLS). Answers the report when it could not, undefined when it could.
 */
export const streamReadiness = async (
  endpoint: AgentEndpoint,
  input: StreamInput,
): Promise<EndpointReport | undefined> => {
  const refuse = (status: 'error' | 'warning', message: string): EndpointReport => ({
    endpointId: endpoint.id,
    online: false,
    status,
    message,
  });
  if (input.kind === 'rtmp' || (input.kind === 'srt' && input.mode === 'listener')) {
    if (await portTaken(input.port, input.kind === 'rtmp' ? 'tcp' : 'udp'))
      return refuse('error', `Port ${input.port} is already in use on the edge server`);
  }
  if (input.kind === 'hls') {
    const answer = await fetch(input.url, { signal: AbortSignal.timeout(5000) }).then(
      (response) => {
        void response.body?.cancel();
        return response.ok ? undefined : `answers ${response.status} ${response.statusText}`.trim();
      },
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    if (answer) return refuse('warning', `No signal: ${input.url} ${answer}`);
  }
  return undefined;
};

/** What a recording is hearing now, for the endpoint's report while it records. */
export type SignalState = {
  receiving: boolean;
  /** When the last push with a wrong stream key was refused. */
  refusedAt?: number;
};

/** How long a refused push stays in the endpoint's report. */
export const REFUSAL_SHOWN_MS = 60_000;

/** Where a person sends a stream, said in the report of an endpoint waiting for its signal. */
export const waitingFor = (input: StreamInput) => {
  switch (input.kind) {
    case 'rtmp':
      return `No signal: waiting for a push to port ${input.port}, application ${input.app}`;
    case 'srt':
      return input.mode === 'listener'
        ? `No signal: waiting for an SRT caller on port ${input.port}`
        : `No signal: calling ${input.host}:${input.port}`;
    case 'hls':
      return `No signal: pulling ${input.url}`;
    case 'test':
      return 'Starting the test stream';
  }
};
