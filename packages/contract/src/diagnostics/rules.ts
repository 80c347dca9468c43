import {
  DIAGNOSTIC_SLOW_MS,
  DISK_FREE_ERROR_SHARE,
  DISK_FREE_WARNING_SHARE,
  type DiagnosticState,
} from './diagnostics.ts';

/**
 * The version an ffmpeg tool prints first (`ffmpeg version 5.1.6-0+deb12u1 Copyright ...`); undefined
 * when the output does not start that way.
 */
export const parseToolVersion = (tool: 'ffmpeg' | 'ffprobe', output: string): string | undefined => {
  const firstLine = output.trimStart().split('\n', 1)[0] ?? '';
  const match = new RegExp(`^${tool} version (\\S+)`).exec(firstLine);
  return match?.[1];
};

/** A check's state: failed is an error; succeeded but slower than DIAGNOSTIC_SLOW_MS a warning. */
export const checkState = (succeeded: boolean, ms: number | null): DiagnosticState => {
  if (!succeeded) return 'error';
  return ms !== null && ms > DIAGNOSTIC_SLOW_MS ? 'warning' : 'ok';
};

/** Used share of a disk, 0 to 1 (0 for an empty or unreadable size). */
export const diskUsedShare = (freeBytes: number, totalBytes: number) =>
  totalBytes > 0 && Number.isFinite(totalBytes)
    ? Math.min(1, Math.max(0, (totalBytes - Math.max(0, freeBytes)) / totalBytes))
    : 0;

/** Little free space is a warning (under 10%), almost none an error (under 2%). */
export const diskState = (freeBytes: number, totalBytes: number): DiagnosticState => {
  if (!(totalBytes > 0)) return 'warning';
  const freeShare = Math.min(1, Math.max(0, freeBytes) / totalBytes);
  if (freeShare < DISK_FREE_ERROR_SHARE) return 'error';
  if (freeShare < DISK_FREE_WARNING_SHARE) return 'warning';
  return 'ok';
};

const SEVERITY: Record<DiagnosticState, number> = { ok: 0, warning: 1, error: 2 };

/** The worst of several states ('ok' for none). */
export const worstState = (states: readonly DiagnosticState[]): DiagnosticState =>
  states.reduce<DiagnosticState>((worst, state) => (SEVERITY[state] > SEVERITY[worst] ? state : worst), 'ok');

/**
 * One count per key, in the keys' order: the counts found, zero for the keys none was found for;
 * counts of keys not listed are dropped.
 */
export const countsFor = <K extends string, R extends string>(
  keys: readonly K[],
  found: readonly { key: string; count: number }[],
  as: R,
): ({ [P in R]: K } & { count: number })[] => {
  const byKey = new Map<string, number>();
  for (const row of found) byKey.set(row.key, (byKey.get(row.key) ?? 0) + row.count);
  return keys.map(
    (key) => ({ [as]: key, count: byKey.get(key) ?? 0 }) as { [P in R]: K } & { count: number },
  );
};

/**
 * An SMTP URL as it may be shown: host and port, never the user or password
 * (`smtps://user:secret@mail.example.com:465` → `mail.example.com:465`).
 */
export const smtpServerLabel = (url: string): string => {
  try {
    const parsed = new URL(url);
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname;
  } catch {
    return 'an SMTP server';
  }
};
