import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Files still being written, or the operating system's own, are never ingested. */
const IGNORED = /(^\.|\.(part|tmp|crdownload|download)$|^Thumbs\.db$|^desktop\.ini$)/i;
export const isIgnoredName = (name: string) => IGNORED.test(name);

export type FoundFile = { relativePath: string; absolutePath: string; size: number; mtimeMs: number };

/**
 * The endpoint's file mask: patterns with `*` and `?`, separated by `;`, `,` or spaces, matched
 * against the file name without regard to case; an empty mask matches every file.
 */
export const fileMaskMatcher = (mask: string) => {
  const patterns = mask
    .split(/[;,\s]+/)
    .filter(Boolean)
    .map(
      (pattern) =>
        new RegExp(
          `^${pattern
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '.*')
            .replace(/\?/g, '.')}$`,
          'i',
        ),
    );
  return (name: string) => patterns.length === 0 || patterns.some((pattern) => pattern.test(name));
};

/** Every file under a folder (depth-first, at most `limit`), with the paths relative to it. */
export const listFiles = async (
  root: string,
  options: { recursive?: boolean; mask?: string; limit?: number } = {},
): Promise<FoundFile[]> => {
  const { recursive = true, limit = 10_000 } = options;
  const matches = fileMaskMatcher(options.mask ?? '');
  const found: FoundFile[] = [];
  const walk = async (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (found.length >= limit || IGNORED.test(entry.name)) continue;
      const absolutePath = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (recursive) await walk(absolutePath);
      } else if (entry.isFile() && matches(entry.name)) {
        const stat = await fs.promises.stat(absolutePath).catch(() => undefined);
        if (stat)
          found.push({
            relativePath: path.relative(root, absolutePath).split(path.sep).join('/'),
            absolutePath,
            size: stat.size,
            mtimeMs: stat.mtimeMs,
          });
      }
    }
  };
  await walk(root);
  return found;
};

/**
 * A file is settled when its size and modification time have not changed for `settleMs`: a copy
 * in progress is left alone until it is complete.
 */
export class SettleTracker {
  private readonly seen = new Map<string, { size: number; mtimeMs: number; since: number }>();

  settled(file: FoundFile, now: number, settleMs: number) {
    const previous = this.seen.get(file.absolutePath);
    if (!previous || previous.size !== file.size || previous.mtimeMs !== file.mtimeMs) {
      this.seen.set(file.absolutePath, { size: file.size, mtimeMs: file.mtimeMs, since: now });
      return settleMs <= 0;
    }
    return now - previous.since >= settleMs;
  }

  forget(absolutePath: string) {
    this.seen.delete(absolutePath);
  }
}

/** The agent's id of a file in the queue: stable for the same endpoint and path, within the allowed characters. */
export const queueIdOf = (endpointId: number, relativePath: string) =>
  createHash('sha1').update(`${endpointId}:${relativePath}`).digest('hex');

/** Whether `target` lies inside one of `roots` (after resolving `..`); with no roots, anywhere. */
export const isInsideRoots = (target: string, roots: readonly string[]) => {
  if (roots.length === 0) return true;
  const resolved = path.resolve(target);
  return roots.some((root) => {
    const relative = path.relative(path.resolve(root), resolved);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  });
};
