import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import {
  type AgentConfiguration,
  type AgentPublish,
  type AgentPublishProgress,
  type AgentQueueItem,
  API_VERSION_HEADER,
  type ApiVersions,
  agentConfigurationSchema,
  agentProgressAnswerSchema,
  agentPublishReportAnswerSchema,
  agentPublishSchema,
  type agentQueueItemProgressSchema,
  agentQueueItemSchema,
  apiVersionsSchema,
  type EndpointReport,
  errorText,
} from '@media/contract';
import { z } from 'zod';

export type EdgeAgentOptions = { cloudUrl: string };

/** Asks the cloud which API versions it speaks; the agent's first step before any ingest call. */
export const fetchApiVersions = async (options: EdgeAgentOptions): Promise<ApiVersions> => {
  const response = await fetch(new URL('/config/apiVersions.json', options.cloudUrl));
  if (!response.ok) throw new Error(`The cloud answered ${response.status} for its API versions`);
  return apiVersionsSchema.parse(await response.json());
};

/** A refusal from the cloud, with its status, so the agent can tell "gone" from "try again". */
export class CloudError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The agent's side of /api/agent: its token, the ingest API version, JSON in and out. */
export class CloudClient {
  private apiVersion?: string;

  constructor(
    private readonly cloudUrl: string,
    private readonly token: string,
  ) {}

  /** The ingest API version the cloud speaks, asked once. */
  async ingestApiVersion() {
    this.apiVersion ??= (await fetchApiVersions({ cloudUrl: this.cloudUrl })).ingest;
    return this.apiVersion;
  }

  private async headers(extra: Record<string, string> = {}) {
    return {
      authorization: `Bearer ${this.token}`,
      [API_VERSION_HEADER]: await this.ingestApiVersion(),
      ...extra,
    };
  }

  private async call<T>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    schema: z.ZodType<T>,
    body?: unknown,
    raw?: { contentType: string; data: Buffer },
  ): Promise<T> {
    const response = await fetch(new URL(`/api/agent/${path}`, this.cloudUrl), {
      method,
      headers: await this.headers(
        raw
          ? { 'content-type': raw.contentType }
          : body !== undefined
            ? { 'content-type': 'application/json' }
            : {},
      ),
      body: raw ? new Uint8Array(raw.data) : body !== undefined ? JSON.stringify(body) : undefined,
    });
    const payload: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw new CloudError(response.status, errorText(payload ?? `HTTP ${response.status}`));
    return z.object({ results: schema }).parse(payload).results;
  }

  heartbeat(
    agentVersion: string,
    endpointVersions: Record<string, string>,
    endpointReports: EndpointReport[] = [],
  ): Promise<AgentConfiguration> {
    return this.call('POST', 'heartbeat', agentConfigurationSchema, {
      agentVersion,
      endpointVersions,
      endpointReports,
    });
  }

  completeCommand(id: number, result: Record<string, string | number | boolean | null>) {
    return this.call('POST', `commands/${id}`, z.unknown(), { result });
  }

  registerItem(item: {
    endpointId: number;
    queueId: string;
    sourceName: string;
    isStream?: boolean;
  }): Promise<AgentQueueItem> {
    return this.call('POST', 'queueItems', agentQueueItemSchema, item);
  }

  queuedItems(limit: number, status: 'queued' | 'ingesting' = 'queued'): Promise<AgentQueueItem[]> {
    return this.call('GET', `queueItems?limit=${limit}&status=${status}`, z.array(agentQueueItemSchema));
  }

  /** Answers the item's status after the report (duplicated when the cloud already holds its content). */
  reportProgress(id: number, change: z.input<typeof agentQueueItemProgressSchema>) {
    return this.call('POST', `queueItems/${id}`, agentProgressAnswerSchema, change);
  }

  uploadThumbnail(id: number, jpeg: Buffer) {
    return this.call('PUT', `queueItems/${id}/thumbnail`, z.unknown(), undefined, {
      contentType: 'image/jpeg',
      data: jpeg,
    });
  }

  /** One live segment of a recording (MPEG-TS), as ffmpeg finished it. */
  uploadLiveSegment(
    id: number,
    sequence: number,
    data: Buffer,
    segment: { duration: number; discontinuity: boolean },
  ) {
    const query = `duration=${segment.duration}&discontinuity=${segment.discontinuity ? 1 : 0}`;
    return this.call('PUT', `queueItems/${id}/live/${sequence}?${query}`, z.unknown(), undefined, {
      contentType: 'video/mp2t',
      data,
    });
  }

  reportUnprocessed(endpointId: number, path: string) {
    return this.call('POST', 'unprocessedFiles', z.unknown(), { endpointId, path });
  }

  /** The publishes this edge server carries out: the ones it left running first, then the queued. */
  publishes(limit: number): Promise<AgentPublish[]> {
    return this.call('GET', `publishes?limit=${limit}`, z.array(agentPublishSchema));
  }

  claimPublish(id: number): Promise<AgentPublish> {
    return this.call('POST', `publishes/${id}/claim`, agentPublishSchema);
  }

  reportPublish(id: number, report: AgentPublishProgress) {
    return this.call('POST', `publishes/${id}`, agentPublishReportAnswerSchema, report);
  }

  /** Writes the published node's file to `file`. */
  async downloadPublishSource(id: number, file: string, signal: AbortSignal) {
    const response = await fetch(new URL(`/api/agent/publishes/${id}/source`, this.cloudUrl), {
      headers: await this.headers(),
      signal,
    });
    if (!response.ok || !response.body) {
      const payload: unknown = await response.json().catch(() => undefined);
      throw new CloudError(response.status, errorText(payload ?? `HTTP ${response.status}`));
    }
    await pipeline(
      Readable.fromWeb(response.body as ReadableStream<Uint8Array>),
      fs.createWriteStream(file),
      { signal },
    );
  }
}
