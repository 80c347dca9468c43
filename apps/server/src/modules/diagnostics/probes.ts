// What the diagnostic page measures outside the database's tables: tools, the bus, storage, the disk.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  checkState,
  DIAGNOSTIC_CHECK_LABELS,
  DIAGNOSTIC_MESSAGES,
  DIAGNOSTIC_TIMEOUT_MS,
  type DiagnosticCheck,
  type DiagnosticCheckName,
  type DiskSpace,
  diskState,
  parseToolVersion,
} from '@media/contract';
import { randomToken } from '../../platform/crypto.ts';
import type { LiveBus } from '../../platform/live/bus.ts';
import type { MediaStorage } from '../../platform/storage/index.ts';

/** Runs `work` with a time limit and answers the check it makes: its time, its state, its message. */
export const timedCheck = async (
  name: DiagnosticCheckName,
  work: () => Promise<string>,
  timeoutMs = DIAGNOSTIC_TIMEOUT_MS,
): Promise<DiagnosticCheck> => {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(DIAGNOSTIC_MESSAGES.timedOut(timeoutMs))), timeoutMs);
  });
  try {
    const message = await Promise.race([work(), timeout]);
    const ms = Math.round((performance.now() - started) * 10) / 10;
    return { name, label: DIAGNOSTIC_CHECK_LABELS[name], status: checkState(true, ms), ms, message };
  } catch (error) {
    const ms = Math.round((performance.now() - started) * 10) / 10;
    // An error in our words (a storage fault) keeps the system's words beside them for the administrator.
    const message =
      error instanceof Error
        ? error.cause instanceof Error
          ? `${error.message} (${error.cause.message})`
          : error.message
        : String(error);
    return { name, label: DIAGNOSTIC_CHECK_LABELS[name], status: 'error', ms, message };
  } finally {
    clearTimeout(timer);
  }
};

/** The version of ffmpeg or ffprobe on the PATH, or null when it is not installed (or does not answer). */
export const toolVersion = (tool: 'ffmpeg' | 'ffprobe') =>
  new Promise<string | null>((resolve) => {
    execFile(tool, ['-hide_banner', '-version'], { timeout: DIAGNOSTIC_TIMEOUT_MS }, (error, stdout) => {
      resolve(error ? null : (parseToolVersion(tool, String(stdout)) ?? null));
    });
  });

/**
 * Sends a notice on the live-update bus and waits for it to come back: on PostgreSQL a NOTIFY through the
 * server to this instance's LISTEN connection. Its id 0 is below every stored change, so the instances'
 * recent-change copies ignore it.
 */
export const busRoundTrip = (bus: LiveBus) =>
  new Promise<string>((resolve, reject) => {
    const channel = `diagnostics:${randomToken(9)}`;
    const unsubscribe = bus.subscribe((notice) => {
      if ('channel' in notice && notice.channel === channel) {
        unsubscribe();
        resolve(DIAGNOSTIC_MESSAGES.busDelivered);
      }
    });
    bus.notify({ id: 0, channel }).catch((error: unknown) => {
      unsubscribe();
      reject(error);
    });
    // A notice that never comes back is the time-out's to report; the listener goes with it.
    setTimeout(unsubscribe, DIAGNOSTIC_TIMEOUT_MS + 100).unref();
  });

/** Writes a small object, reads its size back and removes it. */
export const storageRoundTrip = async (storage: MediaStorage, location: string) => {
  const key = `media/diagnostics/probe-${randomToken(9)}.txt`;
  const content = Buffer.from(`diagnostic probe ${new Date().toISOString()}\n`);
  try {
    await storage.putStream(key, Readable.from([content]), { contentType: 'text/plain' });
    const stat = await storage.stat(key);
    if (stat?.size !== content.length) throw new Error(`The test object ${key} did not read back`);
  } finally {
    await storage.remove(key).catch(() => undefined);
  }
  return DIAGNOSTIC_MESSAGES.storageWritten(location);
};

/** Free and total space of the disk holding DATA_DIR; null when the system does not say. */
export const diskSpace = async (dataDir: string): Promise<DiskSpace | null> => {
  try {
    const stats = await fs.promises.statfs(dataDir);
    const totalBytes = stats.blocks * stats.bsize;
    const freeBytes = stats.bavail * stats.bsize;
    return { path: dataDir, freeBytes, totalBytes, status: diskState(freeBytes, totalBytes) };
  } catch {
    return null;
  }
};

let productVersion: string | undefined;

/** The product's version, from the repository's package.json (read once). */
export const readProductVersion = async () => {
  if (productVersion === undefined) {
    const file = path.resolve(import.meta.dirname, '../../../../../package.json');
    try {
      const parsed: unknown = JSON.parse(await fs.promises.readFile(file, 'utf8'));
      const version = (parsed as { version?: unknown }).version;
      productVersion = typeof version === 'string' ? version : 'unknown';
    } catch {
      productVersion = 'unknown';
    }
  }
  return productVersion;
};
