import { ERROR_CODES } from '@media/contract';
import { AppError } from '../errors.ts';

/** What a write answers when the media storage (or DATA_DIR/tmp, where files wait until complete) is full. */
export const MSG_STORAGE_FULL = 'The media storage is full: free space or raise its quota';
/** What a write answers when the media storage refuses writes; the reason in our words. */
export const MSG_STORAGE_UNWRITABLE = (reason: string) => `The media storage cannot be written: ${reason}`;

/** The reasons a storage cannot be written, in our words, by the error's code (errno or S3 error name). */
export const STORAGE_UNWRITABLE_REASONS: Readonly<Record<string, string>> = {
  EROFS: 'its file system is read-only',
  EACCES: 'the server is not allowed to write there (permissions)',
  EPERM: 'the server is not allowed to write there (permissions)',
  EIO: 'the disk reports input/output errors',
  AccessDenied: 'the bucket refuses the server’s writes (access denied)',
};
/** Codes of a storage that is full: no space left, a quota used up (errno; S3-compatible stores' names). */
export const STORAGE_FULL_CODES: ReadonlySet<string> = new Set([
  'ENOSPC',
  'EDQUOT',
  'XMinioStorageFull',
  'QuotaExceeded',
]);

/**
 * A write of the media storage that failed because of the storage itself: full (507 Insufficient Storage) or
 * not writable (503). Its message says what a person can do; the system's error is its `cause`, for the log.
 */
export class StorageFault extends AppError {
  readonly kind: 'full' | 'unwritable';

  constructor(kind: 'full' | 'unwritable', message: string, cause: unknown) {
    super(ERROR_CODES.unavailable, message, { status: kind === 'full' ? 507 : 503 });
    this.kind = kind;
    this.cause = cause;
  }
}

const codeOf = (error: unknown) => {
  if (!error || typeof error !== 'object') return undefined;
  const { code, name, Code } = error as { code?: unknown; name?: unknown; Code?: unknown };
  // errno codes (Node's fs), then the error names of the AWS SDK (S3).
  for (const value of [code, Code, name]) if (typeof value === 'string') return value;
  return undefined;
};

/**
 * The storage fault an error of a write is, or undefined when it is something else (one place for every
 * storage write: web uploads, agents' tus uploads, thumbnails, clip renders). An errno error's code decides
 * (ENOSPC, EDQUOT: full; EROFS, EACCES, EPERM, EIO: cannot be written); a fault wrapped once stays itself.
 */
export const storageFaultOf = (error: unknown): StorageFault | undefined => {
  if (error instanceof StorageFault) return error;
  if (error instanceof AppError) return undefined;
  const code = codeOf(error);
  if (!code) return undefined;
  if (STORAGE_FULL_CODES.has(code)) return new StorageFault('full', MSG_STORAGE_FULL, error);
  const reason = STORAGE_UNWRITABLE_REASONS[code];
  return reason ? new StorageFault('unwritable', MSG_STORAGE_UNWRITABLE(reason), error) : undefined;
};

/** The administrators are alerted of the same fault at most once in this long (a full disk fails every upload). */
export const STORAGE_FAULT_ALERT_MS = 60_000;

/**
 * Turns failed writes into what their caller throws, and passes each storage fault on to `report` (the start
 * logs it and, when `alert` is true, alerts the administrators: the same fault once per STORAGE_FAULT_ALERT_MS).
 */
export const storageFaultReporter = (report: (fault: StorageFault, alert: boolean) => void) => {
  const lastAlerted = new Map<string, number>();
  return (error: unknown): unknown => {
    // Already handled where it happened (a storage write inside storeStream).
    if (error instanceof StorageFault) return error;
    const fault = storageFaultOf(error);
    if (!fault) return error;
    const now = Date.now();
    const alert =
      now - (lastAlerted.get(fault.message) ?? Number.NEGATIVE_INFINITY) >= STORAGE_FAULT_ALERT_MS;
    if (alert) lastAlerted.set(fault.message, now);
    report(fault, alert);
    return fault;
  };
};
