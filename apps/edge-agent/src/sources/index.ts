import { openAzureBlobSource } from './azure-blob.ts';
import { openFolderSource } from './local-folder.ts';
import { openS3Source } from './s3.ts';
import { openSmbSource } from './smb.ts';
import type { OpenSource } from './source.ts';

export type { EndpointHealth, FileSource, OpenSource, SourceFile } from './source.ts';

/**
 * The source of a file endpoint, or why this agent cannot read it; that reason is the endpoint's reported
 * `error` (DESIGN: a type the agent cannot serve is an error with its reason, never OK).
 */
export const openSource: OpenSource = (endpoint, settings) => {
  switch (endpoint.typeId) {
    case 'LocalFolderEndpoint':
      return openFolderSource(endpoint, 'path', settings);
    case 'AvidISISEndpoint':
      // The workspace as the Avid client mounts it on this machine: read like a folder.
      return openFolderSource(endpoint, 'mountPath', settings);
    case 'S3Endpoint':
      return openS3Source(endpoint);
    case 'AzureBlobEndpoint':
      return openAzureBlobSource(endpoint);
    case 'SmbEndpoint':
      return openSmbSource(endpoint);
    default:
      return { error: `This agent cannot read ${endpoint.typeId} endpoints yet` };
  }
};
