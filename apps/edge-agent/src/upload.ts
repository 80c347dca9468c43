import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { API_VERSION_HEADER } from '@media/contract';
import { type PreviousUpload, Upload, type UrlStorage } from 'tus-js-client';

export type ItemFileRendition = 'proxy' | 'source' | 'poster' | 'filmstrip';

/** 8 MiB: few requests for a proxy, little to send again after a cut. */
export const UPLOAD_CHUNK_BYTES = 8 * 1024 * 1024;
/** Waits between tries after a network error or a cloud that is away (restarting). */
const RETRY_DELAYS_MS = [0, 1000, 2000, 5000, 10_000, 20_000, 30_000, 30_000, 60_000, 60_000];

/**
 * Where the agent remembers its unfinished uploads (one JSON file), so that a restart of the agent resumes
 * an upload at the offset the cloud holds instead of sending it again (tus-js-client's UrlStorage).
 */
/** One change at a time per state file, across every upload of the process. */
const changesOf = new Map<string, Promise<unknown>>();

export class FileUploadStorage implements UrlStorage {
  private readonly file: string;

  constructor(stateDir: string) {
    this.file = path.join(stateDir, 'uploads.json');
  }

  private async read(): Promise<Record<string, PreviousUpload & { fingerprint: string }>> {
    try {
      return JSON.parse(await fs.promises.readFile(this.file, 'utf8'));
    } catch {
      return {};
    }
  }

  /** One change at a time, written through a temporary file so a crash never leaves half of it. */
  private change<T>(edit: (all: Record<string, PreviousUpload & { fingerprint: string }>) => T): Promise<T> {
    const next = (changesOf.get(this.file) ?? Promise.resolve()).then(async () => {
      const all = await this.read();
      const answer = edit(all);
      await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
      const temp = `${this.file}.${randomUUID()}.tmp`;
      await fs.promises.writeFile(temp, JSON.stringify(all));
      await fs.promises.rename(temp, this.file);
      return answer;
    });
    changesOf.set(
      this.file,
      next.catch(() => undefined),
    );
    return next;
  }

  async findAllUploads() {
    return Object.values(await this.read());
  }

  async findUploadsByFingerprint(fingerprint: string) {
    return Object.values(await this.read()).filter((upload) => upload.fingerprint === fingerprint);
  }

  removeUpload(urlStorageKey: string) {
    return this.change((all) => {
      delete all[urlStorageKey];
    });
  }

  addUpload(fingerprint: string, upload: PreviousUpload) {
    const key = `tus-${randomUUID()}`;
    return this.change((all) => {
      all[key] = { ...upload, urlStorageKey: key, fingerprint };
      return key;
    });
  }
}

/**
 * Sends one file of a queue item to the cloud with tus 1.0 (DESIGN "Media": proxies, thumbnails and sources
 * go up resumably). A cut connection is retried from the offset the cloud holds; an upload of the same file
 * (path, size, modification time) begun before an agent restart is resumed, not restarted. `signal` stops it
 * and ends the upload on the cloud. Resolves once the cloud has stored the file.
 */
export const uploadItemFile = (options: {
  cloudUrl: string;
  token: string;
  apiVersion: string;
  file: string;
  queueItemId: number;
  rendition: ItemFileRendition;
  stateDir: string;
  signal?: AbortSignal;
  onProgress?: (bytesSent: number, bytesTotal: number) => void;
  chunkSize?: number;
}): Promise<void> =>
  new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const upload = new Upload(fs.createReadStream(options.file), {
      endpoint: new URL('/api/agent/uploads', options.cloudUrl).toString(),
      chunkSize: options.chunkSize ?? UPLOAD_CHUNK_BYTES,
      retryDelays: RETRY_DELAYS_MS,
      headers: { authorization: `Bearer ${options.token}`, [API_VERSION_HEADER]: options.apiVersion },
      metadata: {
        queueItemId: String(options.queueItemId),
        rendition: options.rendition,
        filename: path.basename(options.file),
      },
      urlStorage: new FileUploadStorage(options.stateDir),
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      // A refusal (4xx but 409/423/429) will not change by trying again; anything else may (a restart).
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        return status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;
      },
      onProgress: options.onProgress ?? null,
      onSuccess: () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      onError: (error) => {
        signal?.removeEventListener('abort', onAbort);
        const status = (error as { originalResponse?: { getStatus(): number; getBody(): string } })
          .originalResponse;
        reject(
          status
            ? new Error(
                `The cloud refused the ${options.rendition} (${status.getStatus()}): ${status.getBody()}`,
              )
            : error,
        );
      },
    });
    const onAbort = () => {
      void upload.abort(true).catch(() => undefined);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    void upload
      .findPreviousUploads()
      .then((previous) => {
        const [last] = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime));
        if (last) upload.resumeFromPreviousUpload(last);
        upload.start();
      })
      .catch(reject);
  });
