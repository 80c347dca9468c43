import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type AgentCommand,
  type AgentConfiguration,
  type AgentEndpoint,
  type AgentQueueItem,
  type EndpointReport,
  endpointCategory,
  endpointDestinationMissing,
} from '@media/contract';
import { probe } from '@media/media-tools';
import pLimit from 'p-limit';
import { CloudClient } from './cloud.ts';
import { runCommand } from './commands.ts';
import { EndpointSources } from './endpoint-sources.ts';
import { ingestItem } from './ingest.ts';
import { positive } from './options.ts';
import { ProbeCache } from './probe-cache.ts';
import { PublishWorker } from './publish.ts';
import { queueIdOf, SettleTracker } from './scanner.ts';
import type { FileSource } from './sources/index.ts';
import { StreamRecorders } from './stream-recorders.ts';

export const AGENT_VERSION = '0.3.0';
/** The endpoint types this agent can read or record. */
export const SUPPORTED_ENDPOINT_TYPES = {
  LocalFolderEndpoint: '1.0',
  TeststreamEndpoint: '1.0',
  RtmpPushEndpoint: '1.0',
  SrtEndpoint: '1.0',
  HlsEndpoint: '1.0',
} as const;
/** Extensions taken for media when only a download could tell (remote sources). */
const MEDIA_EXTENSIONS =
  /\.(mp4|m4v|mov|mxf|mkv|avi|mpg|mpeg|ts|m2ts|mts|webm|wmv|flv|3gp|dv|wav|mp3|aac|m4a|flac|aif|aiff|ogg|opus)$/i;

export type AgentLog = (level: 'info' | 'warn' | 'error', message: string, details?: object) => void;

export type EdgeAgentSettings = {
  cloudUrl: string;
  token: string;
  /** Folders the agent may read; endpoints pointing elsewhere are refused. Empty: anywhere. */
  allowedRoots?: string[];
  heartbeatMs?: number;
  /** How long a file must stay unchanged before it is queued; by default the service's settleSeconds. */
  settleMs?: number;
  /** How often a folder is listed; by default the service's scanIntervalSeconds. */
  scanIntervalMs?: number;
  /** The agent's own folder (work files, upload state); default: a folder in the system's temporary folder. */
  stateDir?: string;
  /** The folder that publishes' folder exports write into; default: `exports` in the state folder. */
  exportsDir?: string;
  /**
   * Threads ffmpeg may use per item. By default ffmpeg's own choice (every core): a lone item is done as fast
   * as the machine allows, and concurrent items share the cores through the system's scheduler.
   */
  threads?: number;
  log?: AgentLog;
};

const key = (endpointId: number, relativePath: string) => `${endpointId}:${relativePath}`;

/**
 * The edge server process (DESIGN.md): calls in, watches its local folder endpoints, queues what
 * settles there, ingests queued items in the operators' order (probe, thumbnail, proxy size) and
 * answers the cloud's commands. Everything goes through the cloud's HTTP API with the edge's token.
 */
export class EdgeAgent {
  private readonly cloud: CloudClient;
  private readonly settle = new SettleTracker();
  /** Files already handed to the cloud (queued or unprocessed), so each is reported once. */
  private readonly registered = new Set<string>();
  private readonly reportedUnprocessed = new Set<string>();
  /** Items being ingested, with their service. */
  private readonly working = new Map<number, number>();
  private readonly warned = new Set<string>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private endpoints = new Map<number, AgentEndpoint>();
  private readonly lastScan = new Map<number, number>();
  /** Open sources by endpoint, and what each endpoint's report says. */
  private readonly sources: EndpointSources;
  private reports: EndpointReport[] = [];
  /** Fires when the agent stops: ffmpeg and uploads end, work files stay for the next start. */
  private readonly stopping = new AbortController();
  /** Why the items left ingesting are to be taken up at the next round: at start, or after a lost report. */
  private takeUp: 'restart' | 'retry' | undefined = 'restart';
  private maxConcurrent = 2;

  /** The publishes of buttons that run on this edge server, one at a time. */
  private readonly publishing: PublishWorker;
  /** The stream endpoints: their reports, the items waiting for Start, the recordings. */
  private readonly streams: StreamRecorders;

  constructor(private readonly settings: EdgeAgentSettings) {
    this.cloud = new CloudClient(settings.cloudUrl, settings.token);
    const { stateDir, cloud } = this;
    const exportsDir = settings.exportsDir ?? path.join(stateDir, 'exports');
    this.publishing = new PublishWorker({ cloud, stateDir, exportsDir, log: this.log }, this.stopping.signal);
    this.streams = new StreamRecorders(this.ingestEnvironment(), this.stopping.signal, {
      log: (message) => this.log('warn', message),
      lost: () => {
        this.takeUp ??= 'retry';
      },
    });
    this.sources = new EndpointSources({
      allowedRoots: settings.allowedRoots ?? [],
      streamReport: (endpoint) => this.streams.report(endpoint),
      warnOnce: (id, message) => this.warnOnce(id, message),
    });
  }

  /** What an ingest (and a recording, which ends in one) works with. */
  private ingestEnvironment() {
    return {
      cloud: this.cloud,
      cloudUrl: this.settings.cloudUrl,
      token: this.settings.token,
      stateDir: this.stateDir,
      threads: this.settings.threads,
      probe: (file: string, signal: AbortSignal) => this.probes.probe(file, signal),
    };
  }

  private get stateDir() {
    return this.settings.stateDir ?? path.join(os.tmpdir(), 'media-edge-agent');
  }

  private log: AgentLog = (level, message, details) => this.settings.log?.(level, message, details);

  private warnOnce(id: string, message: string) {
    if (this.warned.has(id)) return;
    this.warned.add(id);
    this.log('warn', message);
  }

  start() {
    const loop = async () => {
      if (this.stopped) return;
      this.running = this.tick().catch((error: unknown) =>
        this.log('warn', `edge agent: ${error instanceof Error ? error.message : String(error)}`),
      );
      await this.running;
      if (!this.stopped) this.timer = setTimeout(loop, this.settings.heartbeatMs ?? 5000);
    };
    void loop();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.stopping.abort(new Error('The agent is stopping'));
    await this.running;
    await Promise.allSettled([...this.inFlight]);
    await this.streams.idle();
    await this.taking;
    await this.publishing.idle();
    await this.sources.close();
  }

  private readonly inFlight = new Set<Promise<void>>();

  /** Resolves when the ingests and the publish under way have ended (tests and a clean stop wait on it). */
  async idle() {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
    await this.streams.idle();
    await this.publishing.idle();
  }

  /** One round: call in, answer commands, look for new files, ingest what is queued. */
  async tick() {
    const configuration = await this.cloud.heartbeat(
      AGENT_VERSION,
      { ...SUPPORTED_ENDPOINT_TYPES },
      this.reports,
    );
    this.endpoints = new Map(configuration.endpoints.map((endpoint) => [endpoint.id, endpoint]));
    this.maxConcurrent = configuration.edgeServer.maxConcurrentIngests;
    for (const command of configuration.commands) await this.answer(command);
    this.forgetRescanned(configuration);
    this.reports = await this.sources.measure(configuration.endpoints);
    await this.streams.offer(configuration.endpoints, this.reports);
    await this.scan(configuration);
    await this.takeQueued();
    this.publishing.poll();
  }

  private async takeQueued() {
    if (this.takeUp) {
      // Items still ingesting in the cloud with nobody on them (this edge's agent stopped while they ran, or
      // a report of ours did not get through) are taken up again first.
      const resumed = this.takeUp;
      this.takeUp = undefined;
      await this.ingestItems(await this.cloud.queuedItems(100, 'ingesting'), { resumed });
    }
    await this.ingestItems(await this.cloud.queuedItems(100));
  }

  private taking: Promise<void> | undefined;
  private takeAgain = false;

  /**
   * An ingest ended: its place is given to the next queued item at once, not at the next heartbeat (seconds
   * of idle cores per item otherwise). Ends that come while the queue is being read ask for one more read.
   */
  private takeNext() {
    if (this.stopped) return;
    if (this.taking) {
      this.takeAgain = true;
      return;
    }
    this.taking = (async () => {
      do {
        this.takeAgain = false;
        await this.takeQueued().catch((error: unknown) =>
          this.log('warn', `edge agent: ${error instanceof Error ? error.message : String(error)}`),
        );
      } while (this.takeAgain && !this.stopped);
    })().finally(() => {
      this.taking = undefined;
    });
  }

  /** The source of an endpoint, opened once per settings. */
  private async answer(command: AgentCommand) {
    const result = await runCommand(command, {
      cloud: this.cloud,
      forgetAll: () => {
        this.registered.clear();
        this.reportedUnprocessed.clear();
      },
      // Look at every file of the endpoint again, as if it were new.
      forgetEndpoint: (endpointId) => {
        for (const id of [...this.registered])
          if (id.startsWith(`${endpointId}:`)) this.registered.delete(id);
      },
    });
    await this.cloud.completeCommand(command.id, result);
  }

  /** An unprocessed file the cloud no longer holds was rescanned by a person: look at it again. */
  private forgetRescanned(configuration: AgentConfiguration) {
    const held = new Set(configuration.unprocessedFiles.map((file) => key(file.endpointId, file.path)));
    for (const id of this.reportedUnprocessed) {
      if (!held.has(id)) {
        this.reportedUnprocessed.delete(id);
        this.registered.delete(id);
      }
    }
  }

  private async scan(configuration: AgentConfiguration) {
    const forced = new Set(configuration.forcedFiles.map((file) => key(file.endpointId, file.path)));
    for (const endpoint of configuration.endpoints) {
      const stream = endpointCategory(endpoint.typeId) === 'stream';
      if (endpoint.status === 'disabled' || !endpoint.online || stream) continue;
      // Files that would land in no account or folder wait where they are (the endpoint's report says why).
      if (endpointDestinationMissing(endpoint)) continue;
      const source = this.sources.sourceOf(endpoint);
      if ('error' in source) continue;
      if (this.reports.find((report) => report.endpointId === endpoint.id)?.status === 'error') continue;
      const now = Date.now();
      const interval =
        this.settings.scanIntervalMs ?? positive(endpoint.serviceOptions.scanIntervalSeconds, 10) * 1000;
      if (forced.size === 0 && now - (this.lastScan.get(endpoint.id) ?? 0) < interval) continue;
      this.lastScan.set(endpoint.id, now);
      const settleMs = this.settings.settleMs ?? positive(endpoint.serviceOptions.settleSeconds, 5) * 1000;
      const files = await source.list({
        recursive: endpoint.options.recursive !== false,
        mask: typeof endpoint.options.fileMask === 'string' ? endpoint.options.fileMask : '',
        limit: 10_000,
      });
      const fresh = files.filter((file) => {
        const id = key(endpoint.id, file.relativePath);
        if (forced.has(id)) return true;
        if (this.registered.has(id)) return false;
        return this.settle.settled({ ...file, absolutePath: id }, now, settleMs);
      });
      // The files are probed side by side, then registered in the order listed (the queue's order).
      const probing = pLimit(os.availableParallelism() * 2);
      const media = await Promise.all(
        fresh.map((file) =>
          forced.has(key(endpoint.id, file.relativePath))
            ? true
            : probing(() => this.looksLikeMedia(source, file.relativePath)),
        ),
      );
      for (const [index, file] of fresh.entries()) {
        const id = key(endpoint.id, file.relativePath);
        if (!media[index]) {
          if (!this.reportedUnprocessed.has(id)) {
            await this.cloud.reportUnprocessed(endpoint.id, file.relativePath);
            this.reportedUnprocessed.add(id);
          }
          this.registered.add(id);
          continue;
        }
        await this.cloud.registerItem({
          endpointId: endpoint.id,
          queueId: queueIdOf(endpoint.id, file.relativePath),
          sourceName: file.relativePath,
        });
        this.reportedUnprocessed.delete(id);
        this.registered.add(id);
        this.settle.forget(id);
      }
    }
  }

  /** Media by ffprobe where it can read the file cheaply, else by its extension. */
  private async looksLikeMedia(source: FileSource, relativePath: string) {
    const input = await source.probeInput(relativePath);
    if (input === undefined) return MEDIA_EXTENSIONS.test(relativePath);
    const stat = await fs.promises.stat(input).catch(() => undefined);
    const info = await probe(input);
    if (info && stat) this.probes.remember(input, stat, info);
    return info !== null;
  }

  /** What the scan learnt of a file, so that its ingest does not run ffprobe on it again. */
  private readonly probes = new ProbeCache();

  /**
   * Takes items in the operators' order, up to the edge's concurrent ingests and, per service, its 'Files at
   * a time'; each runs on its own, so the next heartbeat comes on time and can take more. Stream items are
   * recorded beside them.
   */
  private async ingestItems(items: AgentQueueItem[], options: { resumed?: 'restart' | 'retry' } = {}) {
    this.streams.take(items, this.endpoints, options);
    const perService = new Map<number, number>();
    for (const serviceId of this.working.values())
      perService.set(serviceId, (perService.get(serviceId) ?? 0) + 1);
    for (const item of items) {
      if (this.working.size >= this.maxConcurrent || this.stopped) break;
      if (this.working.has(item.id) || item.isStream) continue;
      const endpoint = item.endpointId != null ? this.endpoints.get(item.endpointId) : undefined;
      if (!endpoint) continue;
      const source = this.sources.sourceOf(endpoint);
      if ('error' in source) continue;
      const limit = positive(endpoint.serviceOptions.maxConcurrentFiles, 2);
      if ((perService.get(endpoint.serviceId) ?? 0) >= limit) continue;
      perService.set(endpoint.serviceId, (perService.get(endpoint.serviceId) ?? 0) + 1);
      this.working.set(item.id, endpoint.serviceId);
      const run = ingestItem(this.ingestEnvironment(), item, endpoint, source, this.stopping.signal, options)
        .then((settled) => {
          if (!settled && !this.stopped) this.takeUp ??= 'retry';
        })
        .catch((error: unknown) =>
          this.log(
            'warn',
            `ingest of ${item.sourceName}: ${error instanceof Error ? error.message : String(error)}`,
          ),
        )
        .finally(() => {
          this.working.delete(item.id);
          this.inFlight.delete(run);
          this.takeNext();
        });
      this.inFlight.add(run);
    }
  }
}
