import { backoffDelay, type Upload, type UploadFileStatus, type UploadState } from '@media/contract';
import { useRef, useState } from 'react';
import { UploadCancelled, UploadError, uploadFile } from '../../api/uploads.ts';

export type QueuedFile = {
  key: number;
  file: File;
  /** The upload name, which the user may change while choosing (spec1 §2). */
  name: string;
  status: UploadFileStatus;
  progress: number;
  error?: string;
  upload?: Upload;
};

/** Tries of one file against passing failures (network, 502, …); permanent answers stop at once. */
const MAX_TRIES = 3;
let nextKey = 1;
const baseName = (fileName: string) => fileName.replace(/\.[^.]+$/, '') || fileName;

/**
 * spec1 §4 Upload: choosing, uploading, complete; one file at a time. Adding files while uploading cancels
 * the file being sent (it is chosen again, with the new ones) and returns to choosing; adding files once
 * complete starts a new round: the finished files are cleared and the new ones are chosen.
 */
export const useUploadQueue = (urlFor: (file: QueuedFile) => string) => {
  const [state, setState] = useState<UploadState>('choosing');
  const [files, setFiles] = useState<QueuedFile[]>([]);
  const filesRef = useRef(files);
  filesRef.current = files;
  const running = useRef<AbortController | null>(null);

  const update = (key: number, patch: Partial<QueuedFile>) =>
    setFiles((current) => current.map((f) => (f.key === key ? { ...f, ...patch } : f)));

  const add = (chosen: readonly File[]) => {
    const fresh = chosen.map(
      (file): QueuedFile => ({
        key: nextKey++,
        file,
        name: baseName(file.name),
        status: 'choosing',
        progress: 0,
      }),
    );
    if (state === 'uploading') {
      running.current?.abort();
      setState('choosing');
      setFiles((current) => [...current, ...fresh]);
      return;
    }
    if (state === 'complete') {
      setState('choosing');
      setFiles(fresh);
    } else setFiles((current) => [...current, ...fresh]);
  };
  const remove = (key: number) => setFiles((current) => current.filter((f) => f.key !== key));
  const rename = (key: number, name: string) => update(key, { name });

  const start = async () => {
    const controller = new AbortController();
    running.current = controller;
    setState('uploading');
    for (const queued of filesRef.current) {
      if (controller.signal.aborted) break;
      if (queued.status === 'complete') continue;
      update(queued.key, { status: 'preparing', progress: 0, error: undefined });
      for (let attempt = 1; ; attempt++) {
        try {
          update(queued.key, { status: 'uploading' });
          const outcome = await uploadFile(
            urlFor(queued),
            queued.file,
            (progress) => update(queued.key, { progress }),
            controller.signal,
          );
          if ('redirect' in outcome) {
            window.open(outcome.redirect, '_blank', 'popup');
            update(queued.key, { status: 'unknown', progress: 1 });
          } else update(queued.key, { status: 'complete', progress: 1, upload: outcome.upload });
          break;
        } catch (error) {
          if (error instanceof UploadCancelled) {
            update(queued.key, { status: 'choosing', progress: 0 });
            break;
          }
          const permanent = !(error instanceof UploadError) || error.permanent;
          if (permanent || attempt >= MAX_TRIES) {
            update(queued.key, {
              status: 'error',
              error: error instanceof Error ? error.message : String(error),
            });
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt)));
        }
      }
    }
    running.current = null;
    // Cancelled: the queue is choosing again, with the files added meanwhile.
    if (!controller.signal.aborted) setState('complete');
  };

  const clear = () => {
    setFiles([]);
    setState('choosing');
  };

  return { state, files, add, remove, rename, start, clear };
};
