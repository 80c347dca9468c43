import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentCommand, AgentConfiguration, AgentEndpoint, AgentQueueItem } from '@media/contract';
import { CloudClient, CloudError } from './cloud.ts';
import { probe, proxySize, thumbnail } from './media.ts';
import { isInsideRoots, listFiles, queueIdOf, SettleTracker } from './scanner.ts';

export const AGENT_VERSION = '0.2.0';
/** The endpoint types this agent can read; streams are not recorded by it yet. */
export const SUPPORTED_ENDPOINT_TYPES = { LocalFolderEndpoint: '1.0' } as const;

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

  constructor(private readonly settings: EdgeAgentSettings) {
    this.cloud = new CloudClient(settings.cloudUrl, settings.token);
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
    await this.running;
  }

  /** One round: call in, answer commands, look for new files, ingest what is queued. */
  async tick() {
    const configuration = await this.cloud.heartbeat(AGENT_VERSION, { ...SUPPORTED_ENDPOINT_TYPES });
    this.endpoints = new Map(configuration.endpoints.map((endpoint) => [endpoint.id, endpoint]));
    for (const command of configuration.commands) await this.answer(command);
    this.forgetRescanned(configuration);
    await this.scan(configuration);
    await this.ingestQueued(configuration.edgeServer.maxConcurrentIngests);
  }

  private async answer(command: AgentCommand) {
    const result = await this.run(command);
    await this.cloud.completeCommand(command.id, result);
  }

  private async run(command: AgentCommand): Promise<Record<string, string | number | boolean | null>> {
    switch (command.action) {
      case 'machineLoad': {
        const [load1 = 0, load5 = 0, load15 = 0] = os.loadavg();
        return {
          load1: round(load1),
          load5: round(load5),
          load15: round(load15),
          cpus: os.cpus().length,
          freeMemoryMb: Math.round(os.freemem() / 2 ** 20),
          totalMemoryMb: Math.round(os.totalmem() / 2 ** 20),
        };
      }
      case 'runNewEdgeSpeedTest': {
        const started = performance.now();
        const rounds = 3;
        for (let i = 0; i < rounds; i += 1) await this.cloud.queuedItems(1);
        return { latencyMs: round((performance.now() - started) / rounds), rounds };
      }
      case 'service:restart':
      case 'service:rescan':
        this.registered.clear();
        this.reportedUnprocessed.clear();
        return { done: true };
      case 'endpoint:reset':
        // Look at every file of the endpoint again, as if it were new.
        for (const id of [...this.registered])
          if (id.startsWith(`${command.targetId}:`)) this.registered.delete(id);
        return { done: true };
      case 'endpoint:enable':
      case 'endpoint:disable':
        // The status comes with the next heartbeat's endpoints; nothing to do here.
        return { done: true };
      default:
        return { error: `This agent does not know the action ${command.action}` };
    }
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

  private folderOf(endpoint: AgentEndpoint) {
    const folder = endpoint.options.path;
    if (typeof folder !== 'string' || folder === '') return undefined;
    if (!isInsideRoots(folder, this.settings.allowedRoots ?? [])) {
      this.warnOnce(
        `root:${endpoint.id}:${folder}`,
        `Endpoint "${endpoint.name}" points at ${folder}, outside the folders this agent may read`,
      );
      return undefined;
    }
    return path.resolve(folder);
  }

  private async scan(configuration: AgentConfiguration) {
    const forced = new Set(configuration.forcedFiles.map((file) => key(file.endpointId, file.path)));
    for (const endpoint of configuration.endpoints) {
      if (endpoint.status === 'disabled') continue;
      if (!(endpoint.typeId in SUPPORTED_ENDPOINT_TYPES)) {
        this.warnOnce(
          `type:${endpoint.id}`,
          `Endpoint "${endpoint.name}": ${endpoint.typeId} is not read by this agent`,
        );
        continue;
      }
      const folder = this.folderOf(endpoint);
      if (!folder) continue;
      const now = Date.now();
      const interval =
        this.settings.scanIntervalMs ?? positive(endpoint.serviceOptions.scanIntervalSeconds, 10) * 1000;
      if (forced.size === 0 && now - (this.lastScan.get(endpoint.id) ?? 0) < interval) continue;
      this.lastScan.set(endpoint.id, now);
      const settleMs = this.settings.settleMs ?? positive(endpoint.serviceOptions.settleSeconds, 5) * 1000;
      const files = await listFiles(folder, {
        recursive: endpoint.options.recursive !== false,
        mask: typeof endpoint.options.fileMask === 'string' ? endpoint.options.fileMask : '',
      });
      for (const file of files) {
        const id = key(endpoint.id, file.relativePath);
        const isForced = forced.has(id);
        if (this.registered.has(id) && !isForced) continue;
        if (!isForced && !this.settle.settled(file, now, settleMs)) continue;
        if (!isForced && !(await probe(file.absolutePath))) {
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
        this.settle.forget(file.absolutePath);
      }
    }
  }

  /**
   * Takes queued items in the operators' order, up to the edge's concurrent ingests and, per service,
   * its 'Files at a time'.
   */
  private async ingestQueued(maxConcurrent: number) {
    const free = Math.max(0, maxConcurrent - this.working.size);
    if (free === 0) return;
    const perService = new Map<number, number>();
    for (const serviceId of this.working.values())
      perService.set(serviceId, (perService.get(serviceId) ?? 0) + 1);
    const chosen: AgentQueueItem[] = [];
    for (const item of await this.cloud.queuedItems(100)) {
      if (chosen.length >= free) break;
      if (this.working.has(item.id) || item.isStream) continue;
      const endpoint = item.endpointId != null ? this.endpoints.get(item.endpointId) : undefined;
      const serviceId = endpoint?.serviceId ?? 0;
      const limit = endpoint ? positive(endpoint.serviceOptions.maxConcurrentFiles, 2) : 1;
      if ((perService.get(serviceId) ?? 0) >= limit) continue;
      perService.set(serviceId, (perService.get(serviceId) ?? 0) + 1);
      this.working.set(item.id, serviceId);
      chosen.push(item);
    }
    await Promise.all(chosen.map((item) => this.ingest(item)));
  }

  private async ingest(item: AgentQueueItem) {
    try {
      await this.cloud.reportProgress(item.id, {
        status: 'ingesting',
        log: line(`Ingest of ${item.sourceName} started`),
      });
      await this.cloud.reportProgress(item.id, await this.work(item));
    } catch (error) {
      // 409: a person took the item out of the queue meanwhile; their decision stands.
      if (!(error instanceof CloudError && error.status === 409)) {
        const message = error instanceof Error ? error.message : String(error);
        await this.cloud
          .reportProgress(item.id, { status: 'failed', error: message, log: line(`Failed: ${message}`) })
          .catch(() => undefined);
      }
    } finally {
      this.working.delete(item.id);
    }
  }

  private async work(item: AgentQueueItem) {
    const endpoint = item.endpointId != null ? this.endpoints.get(item.endpointId) : undefined;
    const folder = endpoint && this.folderOf(endpoint);
    if (!folder) {
      const error = 'The endpoint of this item is gone or cannot be read';
      return { status: 'failed' as const, error, log: line(error) };
    }
    const file = path.resolve(folder, item.sourceName);
    if (!isInsideRoots(file, [folder])) {
      const error = 'The file lies outside its endpoint folder';
      return { status: 'failed' as const, error, log: line(error) };
    }
    const info = await probe(file);
    if (!info) {
      if (!fs.existsSync(file))
        return {
          status: 'missing' as const,
          error: 'The file is no longer there',
          log: line('File missing'),
        };
      if (item.forced)
        return {
          status: 'ingested' as const,
          fileSize: (await fs.promises.stat(file)).size,
          log: line('Forced past the media check: not a media file, no proxy made'),
        };
      return {
        status: 'failed' as const,
        error: 'Not a media file',
        log: line('ffprobe found no audio or video'),
      };
    }
    const lines = [line(`Probed: ${describe(info)}`)];
    let size: { width: number; height: number } | null = null;
    if (info.hasVideo && info.width && info.height) {
      size = proxySize(info.width, info.height);
      await this.cloud.uploadThumbnail(item.id, await thumbnail(file, info));
      lines.push(line(`Thumbnail made; proxy size ${size.width}x${size.height}`));
    }
    lines.push(line('Ingested'));
    const { size: fileSize } = await fs.promises.stat(file);
    return {
      status: 'ingested' as const,
      duration: info.duration,
      fileSize,
      proxyWidth: size?.width ?? null,
      proxyHeight: size?.height ?? null,
      log: lines.join(''),
    };
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
/** A positive number option, or the fallback when it is missing or not a number. */
const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};
const line = (text: string) => `${new Date().toISOString()} ${text}\n`;
const describe = (info: Awaited<ReturnType<typeof probe>> & object) =>
  [
    info.hasVideo ? `video ${info.width}x${info.height}` : 'no video',
    info.hasAudio ? 'audio' : 'no audio',
    info.duration != null ? `${round(info.duration)} s` : 'duration unknown',
  ].join(', ');
