import fs from 'node:fs';
import { type MediaProbe, probe } from '@media/media-tools';

/**
 * Probes of files the scan looked at, each used once by the file's ingest while the file is unchanged (same
 * size and modification time); the oldest are forgotten past a bound.
 */
export class ProbeCache {
  private readonly known = new Map<string, { size: number; mtimeMs: number; info: MediaProbe }>();

  remember(file: string, stat: { size: number; mtimeMs: number }, info: MediaProbe) {
    this.known.delete(file);
    this.known.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, info });
    if (this.known.size > 10_000) this.known.delete(this.known.keys().next().value as string);
  }

  async probe(file: string, signal: AbortSignal) {
    const known = this.known.get(file);
    this.known.delete(file);
    const stat = known && (await fs.promises.stat(file).catch(() => undefined));
    if (known && stat?.size === known.size && stat.mtimeMs === known.mtimeMs) return known.info;
    return probe(file, { signal });
  }
}
