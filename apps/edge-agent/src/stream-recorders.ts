import {
  type AgentEndpoint,
  type AgentQueueItem,
  capturesByItself,
  type EndpointReport,
} from '@media/contract';
import type { IngestEnvironment } from './ingest.ts';
import { recordStreamItem } from './stream.ts';
import {
  isRecordedStreamType,
  REFUSAL_SHOWN_MS,
  type SignalState,
  streamInputOf,
  streamReadiness,
  waitingFor,
} from './stream-endpoints.ts';

/** How long a readiness check (a port, a playlist) is reused. */
const READINESS_TTL_MS = 10_000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * What the heartbeat reports of a stream endpoint, which is no file source: one this agent cannot record is
 * an `error` saying why (DESIGN: nothing pretends); one recording says whether its signal is there and
 * whether it refused a push; one waiting says whether it could record (its port free, its playlist there).
 */
export const streamEndpointReport = (
  endpoint: AgentEndpoint,
  signal: SignalState | undefined,
  readiness: EndpointReport | undefined,
): EndpointReport => {
  const input = streamInputOf(endpoint);
  const report = (status: EndpointReport['status'], message: string, online = true): EndpointReport => ({
    endpointId: endpoint.id,
    online,
    status,
    message,
  });
  if ('error' in input) return report('error', input.error, false);
  if (signal) {
    if (signal.refusedAt && Date.now() - signal.refusedAt < REFUSAL_SHOWN_MS)
      return report('warning', 'Recording; refused a push with a wrong stream key');
    return signal.receiving ? report('ok', 'Recording') : report('warning', waitingFor(input));
  }
  return readiness ?? report('ok', 'Ready: starts recording on Start');
};

/** The name of a new recording of an endpoint: the endpoint's name and the time the item was made. */
export const recordingName = (endpoint: AgentEndpoint, at = new Date()) =>
  `${endpoint.name} ${at.toISOString().slice(0, 19).replace('T', ' ').replace(/:/g, '-')}`;

/**
 * The stream side of an agent: which stream endpoints it records and reports, the item each one waits with for
 * Start, and the recordings under way (they do not count against the file ingests at a time).
 */
export class StreamRecorders {
  /** Recordings under way: item id to its endpoint id and what it hears. */
  private readonly running = new Map<number, { endpointId: number; signal: SignalState }>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Readiness checks of the endpoints not recording, reused for a few seconds. */
  private readonly readiness = new Map<number, { at: number; key: string; report?: EndpointReport }>();

  constructor(
    private readonly env: IngestEnvironment,
    private readonly stopping: AbortSignal,
    /** `lost`: a recording whose outcome did not reach the cloud, to be taken up again. */
    private readonly agent: { log: (message: string) => void; lost: () => void },
  ) {}

  async report(endpoint: AgentEndpoint): Promise<EndpointReport> {
    const recording = [...this.running.values()].find((entry) => entry.endpointId === endpoint.id);
    if (recording) return streamEndpointReport(endpoint, recording.signal, undefined);
    const input = streamInputOf(endpoint);
    if ('error' in input) return streamEndpointReport(endpoint, undefined, undefined);
    const key = JSON.stringify(input);
    let known = this.readiness.get(endpoint.id);
    if (!known || known.key !== key || Date.now() - known.at > READINESS_TTL_MS) {
      known = { at: Date.now(), key, report: await streamReadiness(endpoint, input) };
      this.readiness.set(endpoint.id, known);
    }
    return streamEndpointReport(endpoint, undefined, known.report);
  }

  /**
   * Each recordable stream endpoint that is online has an item waiting for Start (the cloud keeps one); one
   * that captures by itself (autoCapture always, ondemand) starts recording it at once.
   */
  async offer(endpoints: AgentEndpoint[], reports: EndpointReport[]) {
    this.endpoints = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
    for (const endpoint of endpoints) {
      if (!isRecordedStreamType(endpoint.typeId) || !endpoint.online) continue;
      if (reports.find((report) => report.endpointId === endpoint.id)?.status !== 'ok') continue;
      const item = await this.env.cloud.registerItem({
        endpointId: endpoint.id,
        queueId: `stream-${endpoint.id}-${Date.now()}`,
        sourceName: recordingName(endpoint),
        isStream: true,
      });
      const busy = [...this.running.values()].some((entry) => entry.endpointId === endpoint.id);
      if (item.status === 'actionRequired' && capturesByItself(endpoint.options) && !busy)
        this.begin(item, endpoint, {});
    }
  }

  /** The endpoints as the cloud gave them at the last round. */
  private endpoints = new Map<number, AgentEndpoint>();
  /** Schedules seen ahead of their start: item id to the timer that starts them at their time. */
  private readonly armed = new Map<number, NodeJS.Timeout>();

  /**
   * Starts recording the stream items a person started (queued) or that were recording before a restart; a
   * schedule seen before its time starts at its time, one past its end is left to the cloud (which fails it).
   */
  take(
    items: AgentQueueItem[],
    endpoints: Map<number, AgentEndpoint>,
    options: { resumed?: 'restart' | 'retry' } = {},
  ) {
    this.endpoints = endpoints;
    for (const item of items) {
      if (!item.isStream || this.running.has(item.id) || this.stopping.aborted) continue;
      const endpoint = item.endpointId != null ? endpoints.get(item.endpointId) : undefined;
      if (!endpoint || !isRecordedStreamType(endpoint.typeId)) continue;
      const schedule = item.status === 'queued' ? item.schedule : undefined;
      if (schedule) {
        if (this.armed.has(item.id)) continue;
        if (schedule.endAt && Date.parse(schedule.endAt) <= Date.now()) continue;
        const wait = Math.max(0, Date.parse(schedule.startAt) - Date.now());
        this.armed.set(
          item.id,
          setTimeout(() => {
            this.armed.delete(item.id);
            // As the endpoint is now: one switched offline or disabled meanwhile is left to the cloud, which
            // fails the schedule saying why.
            const now = this.endpoints.get(endpoint.id);
            if (now?.online && now.status !== 'disabled') this.begin(item, now, options);
          }, wait),
        );
        continue;
      }
      this.begin(item, endpoint, options);
    }
  }

  private begin(item: AgentQueueItem, endpoint: AgentEndpoint, options: { resumed?: 'restart' | 'retry' }) {
    if (this.running.has(item.id) || this.stopping.aborted) return;
    const signal: SignalState = { receiving: false };
    this.running.set(item.id, { endpointId: endpoint.id, signal });
    // Its port is taken by the recording itself from now on: checked afresh once it ends.
    this.readiness.delete(endpoint.id);
    const endWanted = () => {
      const now = this.endpoints.get(endpoint.id);
      return now?.online && now.status !== 'disabled'
        ? undefined
        : `Endpoint ${endpoint.name} was switched offline: the recording ends`;
    };
    const run = recordStreamItem(this.env, item, endpoint, this.stopping, { ...options, signal, endWanted })
      .then((settled) => {
        if (!settled && !this.stopping.aborted) this.agent.lost();
      })
      .catch((error: unknown) => this.agent.log(`recording of ${item.sourceName}: ${messageOf(error)}`))
      .finally(() => {
        this.running.delete(item.id);
        this.readiness.delete(endpoint.id);
        this.inFlight.delete(run);
      });
    this.inFlight.add(run);
  }

  /** Resolves when the recordings under way have ended (schedules not yet started are let go). */
  async idle() {
    if (this.stopping.aborted) for (const timer of this.armed.values()) clearTimeout(timer);
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }
}
