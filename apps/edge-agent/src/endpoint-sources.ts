import {
  type AgentEndpoint,
  type EndpointReport,
  endpointCategory,
  endpointDestinationMissing,
} from '@media/contract';
import { type EndpointHealth, type FileSource, openSource } from './sources/index.ts';

/** How long a measured health stands before the endpoint is asked again. */
const HEALTH_TTL_MS = 10_000;

/**
 * The open sources of the agent's file endpoints, reopened when an endpoint's settings change, and what the
 * heartbeat reports of every endpoint: measured, never assumed (health kept for a few seconds), with the
 * online switch it was measured under.
 */
export class EndpointSources {
  private readonly sources = new Map<number, { key: string; source: FileSource | { error: string } }>();
  private readonly health = new Map<number, { at: number; health: EndpointHealth }>();

  constructor(
    private readonly settings: {
      allowedRoots: string[];
      /** A stream endpoint's report (its recorder knows). */
      streamReport: (endpoint: AgentEndpoint) => Promise<EndpointReport>;
      /** Says a problem once, however often it is met. */
      warnOnce: (id: string, message: string) => void;
    },
  ) {}

  sourceOf(endpoint: AgentEndpoint) {
    const key = JSON.stringify([endpoint.typeId, endpoint.options]);
    const known = this.sources.get(endpoint.id);
    if (known?.key === key) return known.source;
    if (known && 'close' in known.source) void known.source.close();
    const source = openSource(endpoint, { allowedRoots: this.settings.allowedRoots });
    this.sources.set(endpoint.id, { key, source });
    this.health.delete(endpoint.id);
    if ('error' in source)
      this.settings.warnOnce(
        `open:${endpoint.id}:${source.error}`,
        `Endpoint "${endpoint.name}": ${source.error}`,
      );
    return source;
  }

  measure(endpoints: AgentEndpoint[]): Promise<EndpointReport[]> {
    return Promise.all(
      endpoints.map(async (endpoint) => ({
        ...(await this.measureOne(endpoint)),
        switchedOn: endpoint.online,
      })),
    );
  }

  private async measureOne(endpoint: AgentEndpoint): Promise<EndpointReport> {
    const now = Date.now();
    if (endpoint.status === 'disabled')
      return { endpointId: endpoint.id, online: false, status: 'disabled', message: 'Disabled' };
    if (!endpoint.online)
      return { endpointId: endpoint.id, online: false, status: 'warning', message: 'Switched offline' };
    if (endpointCategory(endpoint.typeId) === 'stream') return this.settings.streamReport(endpoint);
    const source = this.sourceOf(endpoint);
    if ('error' in source)
      return { endpointId: endpoint.id, online: false, status: 'error', message: source.error };
    // A folder it cannot read is the worse news; one it reads that would feed no account comes next.
    const nowhere = endpointDestinationMissing(endpoint);
    if (nowhere) return { endpointId: endpoint.id, online: false, status: 'warning', message: nowhere };
    const cached = this.health.get(endpoint.id);
    if (cached && now - cached.at < HEALTH_TTL_MS) return { endpointId: endpoint.id, ...cached.health };
    const health = await source.health().catch(
      (error: unknown): EndpointHealth => ({
        online: false,
        status: 'error',
        message: error instanceof Error ? error.message : String(error),
      }),
    );
    this.health.set(endpoint.id, { at: now, health });
    return { endpointId: endpoint.id, ...health };
  }

  async close() {
    for (const { source } of this.sources.values()) if ('close' in source) await source.close();
  }
}
