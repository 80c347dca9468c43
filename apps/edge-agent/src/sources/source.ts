import type { AgentEndpoint, EndpointReport } from '@media/contract';

/** A file an endpoint holds, with what tells a finished copy from one still being written. */
export type SourceFile = { relativePath: string; size: number; mtimeMs: number };

/** What the agent measured of an endpoint: the heartbeat's report without the id. */
export type EndpointHealth = Omit<EndpointReport, 'endpointId'>;

/**
 * One file endpoint as the agent reads it (spec2 §3 source category): a local or mounted folder
 * (LocalFolderEndpoint, AvidISISEndpoint), an S3-compatible bucket and prefix (S3Endpoint), an Azure blob
 * container and prefix (AzureBlobEndpoint) or an SMB share (SmbEndpoint). Paths are relative to the
 * endpoint's root, `/`-separated.
 */
export interface FileSource {
  /** The files under the root (recursively unless the endpoint says not), matching the mask, at most `limit`. */
  list(options: { recursive: boolean; mask: string; limit: number }): Promise<SourceFile[]>;
  /** Whether the file is still there (for `missing`). */
  exists(relativePath: string): Promise<boolean>;
  /**
   * A local file with the content, for ffmpeg: the file itself for folders, a download into `tempDir` for
   * remote sources (progress in bytes); `release` removes a download. Undefined when the file is gone.
   */
  fetch(
    relativePath: string,
    options: { tempDir: string; signal: AbortSignal; onProgress?: (bytes: number) => void },
  ): Promise<{ path: string; release: () => Promise<void> } | undefined>;
  /**
   * What ffprobe can read without a download (a path, or a signed URL), to tell media from other files
   * before queueing; undefined when only a download would tell (then the file extension decides).
   */
  probeInput(relativePath: string): Promise<string | undefined>;
  /** Reachable, readable, credentials accepted: `ok`, else `error` (or `warning`) with the reason. */
  health(): Promise<EndpointHealth>;
  close(): Promise<void>;
}

/**
 * The source for an endpoint, or the reason this agent cannot read it (an unknown type, an option
 * missing, a folder outside the agent's allowed roots): that reason is reported as the endpoint's `error`.
 */
export type OpenSource = (
  endpoint: AgentEndpoint,
  settings: { allowedRoots: readonly string[] },
) => FileSource | { error: string };
