import type { IngestQueueMode } from '../ingest/ingest.ts';
import type { EdgeContext } from './edge.ts';

/** spec2 §2: the link shapes of the edge and ingest pages, built in one place. */
export const EDGE_LINKS = {
  edgeServer: (userId: number, edgeServerId: number) => `/users/${userId}/edge#/${edgeServerId}`,
  edgeServers: (userId: number) => `/users/${userId}/edge`,
  services: (edgeServerId: number, context: EdgeContext) =>
    `/edge/${edgeServerId}/services?context=${context}`,
  endpoints: (edgeServerId: number, serviceId: number, context: EdgeContext, endpointId?: number) =>
    `/edge/${edgeServerId}/services/${serviceId}/endpoints?context=${context}${endpointId ? `#/${endpointId}` : ''}`,
  edgeIngestQueue: (edgeServerId: number, context: EdgeContext, filter?: string) =>
    `/edge/${edgeServerId}/ingestQueue?context=${context}${filter ? `&filter=${encodeURIComponent(filter)}` : ''}#/forEdge/${edgeServerId}`,
  /** The ingest queue of one endpoint (the queue area's endpoint id input, spec2 §1). */
  endpointIngestQueue: (
    edgeServerId: number,
    serviceId: number,
    endpointId: number,
    context: EdgeContext,
    mode?: IngestQueueMode,
  ) =>
    `/edge/${edgeServerId}/services/${serviceId}/endpoints/${endpointId}/ingestQueue?context=${context}${modeQuery(mode).replace('?', '&')}`,
  unprocessedFiles: (edgeServerId: number, context: EdgeContext) =>
    `/edge/${edgeServerId}/unprocessedFiles?context=${context}`,
  arrivals: (accountId: number, arrivalsFolderId?: number) =>
    `/accounts/${accountId}/arrivals${arrivalsFolderId ? `#${arrivalsFolderId}` : ''}`,
  arrivalsIngestQueue: (accountId: number, arrivalsFolderId: number, mode?: IngestQueueMode) =>
    `/accounts/${accountId}/arrivals/${arrivalsFolderId}/ingestQueue${modeQuery(mode)}`,
  accountIngestQueue: (accountId: number, mode?: IngestQueueMode) =>
    `/accounts/${accountId}/ingestQueue${modeQuery(mode)}`,
} as const;

/** spec2 §2: the streams view also asks for full-size thumbnails. */
const modeQuery = (mode?: IngestQueueMode) =>
  mode === undefined ? '' : mode === 'streams' ? '?mode=streams&thumbsize=1.0' : `?mode=${mode}`;
