import type { Readable } from 'node:stream';
import { BlobServiceClient, type ContainerClient, RestError } from '@azure/storage-blob';
import type { AgentEndpoint } from '@media/contract';
import { downloadTo, folderPrefix, reasonOf, wantedBy } from './remote.ts';
import type { EndpointHealth, FileSource, SourceFile } from './source.ts';

const option = (endpoint: AgentEndpoint, name: string) => {
  const value = endpoint.options[name];
  return typeof value === 'string' ? value.trim() : '';
};

/**
 * AzureBlobEndpoint: the blobs of a container under a prefix, read with the endpoint's SAS token (list and
 * read permissions). The blob service is the storage account's (`https://{account}.blob.core.windows.net`)
 * unless the endpoint names another (Azurite, a private endpoint).
 */
export const openAzureBlobSource = (endpoint: AgentEndpoint): FileSource | { error: string } => {
  const accountName = option(endpoint, 'accountName');
  const containerName = option(endpoint, 'container');
  if (!accountName) return { error: 'The storage account is not set' };
  if (!containerName) return { error: 'The container is not set' };
  const serviceUrl = option(endpoint, 'blobEndpoint') || `https://${accountName}.blob.core.windows.net`;
  if (!/^https?:\/\/[^/]+/i.test(serviceUrl))
    return { error: `The blob service URL ${serviceUrl} is not an http(s) address` };
  const sas = option(endpoint, 'sasToken').replace(/^\?/, '');
  let container: ContainerClient;
  try {
    container = new BlobServiceClient(sas ? `${serviceUrl}?${sas}` : serviceUrl, undefined, {
      retryOptions: { maxTries: 2 },
    }).getContainerClient(containerName);
  } catch (error) {
    return { error: `The blob service URL is not usable: ${reasonOf(error)}` };
  }
  const prefix = folderPrefix(endpoint.options.prefix);
  const where = `${accountName}/${containerName}/${prefix}`;
  const blobOf = (relativePath: string) => {
    if (relativePath.split('/').some((part) => part === '..' || part === ''))
      throw new Error('Not a file path');
    return container.getBlobClient(`${prefix}${relativePath}`);
  };
  const statusOf = (error: unknown) => (error instanceof RestError ? error.statusCode : undefined);

  return {
    list: async ({ recursive, mask, limit }) => {
      const wanted = wantedBy(mask);
      const found: SourceFile[] = [];
      const blobs = recursive
        ? container.listBlobsFlat({ prefix })
        : container.listBlobsByHierarchy('/', { prefix });
      for await (const item of blobs) {
        if (found.length >= limit) break;
        if ('kind' in item && item.kind === 'prefix') continue;
        const relativePath = item.name.slice(prefix.length);
        if (!wanted(relativePath)) continue;
        const properties = 'properties' in item ? item.properties : undefined;
        found.push({
          relativePath,
          size: properties?.contentLength ?? 0,
          mtimeMs: properties?.lastModified?.getTime() ?? 0,
        });
      }
      return found.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
    },
    exists: (relativePath) => blobOf(relativePath).exists(),
    fetch: async (relativePath, options) => {
      let body: Readable | undefined;
      try {
        body = (await blobOf(relativePath).download(0, undefined, { abortSignal: options.signal }))
          .readableStreamBody as Readable | undefined;
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
      if (!body) return undefined;
      return downloadTo(body, { ...options, relativePath });
    },
    probeInput: async () => undefined,
    health: async (): Promise<EndpointHealth> => {
      try {
        await container.listBlobsFlat({ prefix }).byPage({ maxPageSize: 1 }).next();
        return { online: true, status: 'ok', message: `Reading ${where}` };
      } catch (error) {
        const status = statusOf(error);
        const code = error instanceof RestError ? error.code : undefined;
        const message =
          code === 'ContainerNotFound' || status === 404
            ? `Container ${containerName} does not exist in ${accountName}`
            : status === 403 || status === 401
              ? `Access to ${where} is refused: check the SAS token (it must allow list and read)`
              : `${where} ${reasonOf(error)}`;
        return { online: false, status: 'error', message };
      }
    },
    close: async () => {},
  };
};
