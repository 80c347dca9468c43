import { arrivalsFolderType } from '../arrivals/arrivals.ts';
import { maxIngestResolutionOf, resolveIngestFormat } from './proxy-plan.ts';

/** How an endpoint's files are ingested, as the cloud tells its agent (the agent endpoint's `ingest`). */
export type IngestSettings = {
  format: string;
  maxResolution: number;
  makeProxy: boolean;
  keepSource: boolean;
};

/** A workflow's stored definition (JSON text); its `ingestFormat`, when it names one. */
export const workflowIngestFormat = (definition: string | null | undefined): string | null => {
  try {
    const parsed: unknown = JSON.parse(definition ?? '');
    const value = (parsed as { ingestFormat?: unknown } | null)?.ingestFormat;
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
};

/**
 * The ingest of an endpoint's files: the format from the chain endpoint workflow -> arrivals folder -> account
 * (spec1 §5), the account's max ingest resolution, and what the arrivals folder type keeps: 'standard' makes
 * a proxy (unless its makeProxies option is off) and keeps the source in the cloud, 'proxyOnly' leaves the
 * source at the edge, 'archive' keeps the source and makes no proxy. Without a folder: a proxy only.
 */
export const ingestSettingsFor = (input: {
  workflowDefinition: string | null | undefined;
  folder: { typeId: string; options: Record<string, string | number | boolean> } | null;
  accountFormats: readonly string[];
  accountMaxVideo: string | null | undefined;
}): IngestSettings => {
  const folderFormat = input.folder?.options.ingestFormat;
  const format = resolveIngestFormat({
    workflow: workflowIngestFormat(input.workflowDefinition),
    arrivalsFolder: typeof folderFormat === 'string' ? folderFormat : null,
    account: input.accountFormats,
  });
  const type = input.folder ? (arrivalsFolderType(input.folder.typeId)?.id ?? 'standard') : undefined;
  const makeProxies = input.folder?.options.makeProxies;
  return {
    format,
    maxResolution: maxIngestResolutionOf(input.accountMaxVideo),
    makeProxy: type === 'archive' ? false : !(makeProxies === false || makeProxies === 'false'),
    keepSource: type === 'standard' || type === 'archive',
  };
};
