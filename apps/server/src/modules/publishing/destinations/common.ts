import type { Phase } from '@media/contract';
import type { AppContext } from '../../../platform/context.ts';

// Safe names of published files: one copy, shared with the edge agent's folder export.
export { freeFile, safeFolder, safeName } from '@media/media-tools';

/** A failure no retry can mend: the run ends failed at once with this reason. */
export class PublishRefused extends Error {}

/** A webhook or FTP server that does not answer in this time is tried again later (the job's retries). */
export const PEER_TIMEOUT_MS = 10_000;

export type NetworkNode = Phase['phase']['network']['nodes'][number];
export type Delivery = {
  accountId: number;
  accountName: string;
  nodeName: string;
  nodePath: string;
  publishId: number;
  button: { id: number; name: string };
  mediaId: number;
  signal: AbortSignal;
};

/** A destination module: puts the file where its options say and answers where (the publish's output). */
export type Destination = (
  ctx: AppContext,
  destination: NetworkNode,
  file: string,
  delivery: Delivery,
) => Promise<string>;
