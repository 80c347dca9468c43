import fs from 'node:fs';
import path from 'node:path';
import type { Phase } from '@media/contract';
import type { AppContext } from '../../../platform/context.ts';

/** A failure no retry can mend: the run ends failed at once with this reason. */
export class PublishRefused extends Error {}

/** A webhook or FTP server that does not answer in this time is tried again later (the job's retries). */
export const PEER_TIMEOUT_MS = 10_000;

export type NetworkNode = Phase['phase']['network']['nodes'][number];
export type Delivery = {
  accountName: string;
  nodeName: string;
  nodePath: string;
  publishId: number;
  button: { id: number; name: string };
  mediaId: number;
  signal: AbortSignal;
};

/** A file or folder name from what a person typed: no separators, control or reserved characters. */
const RESERVED = '/\\<>:"|?*';
export const safeName = (name: string) =>
  [...name]
    .map((character) => (character.charCodeAt(0) < 32 || RESERVED.includes(character) ? '_' : character))
    .join('')
    .trim() || '_';
export const safeFolder = (folder: string) =>
  folder
    .split(/[/\\]+/)
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
    .map(safeName);

/** `name.ext`, or `name (2).ext` … when taken: an export never overwrites an earlier one. */
export const freeFile = async (folder: string, name: string, extension: string) => {
  for (let attempt = 1; ; attempt++) {
    const file = path.join(folder, `${name}${attempt === 1 ? '' : ` (${attempt})`}${extension}`);
    if (!(await fs.promises.stat(file).catch(() => undefined))) return file;
  }
};

/** A destination module: puts the file where its options say and answers where (the publish's output). */
export type Destination = (
  ctx: AppContext,
  destination: NetworkNode,
  file: string,
  delivery: Delivery,
) => Promise<string>;
