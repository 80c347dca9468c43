import {
  type ErrorBody,
  MSG_UNEXPECTED_RESPONSE,
  UPLOAD_PERMANENT_ERROR_STATUSES,
  type Upload,
  type UploadKind,
  type UploadsPage,
} from '@media/contract';
import { useQuery } from '@tanstack/react-query';
import { apiFetch, relogin } from './client.ts';
import { appSettings } from './settings.ts';

export const uploadsKey = (accountId: number, kind?: UploadKind) =>
  ['uploads', accountId, kind ?? 'web'] as const;

export const useUploads = (
  accountId: number,
  kind: UploadKind | undefined,
  page: { offset: number; limit: number },
  options: { enabled?: boolean } = {},
) =>
  useQuery({
    queryKey: [...uploadsKey(accountId, kind), page],
    enabled: options.enabled,
    queryFn: () => {
      const query = new URLSearchParams({ offset: String(page.offset), limit: String(page.limit) });
      if (kind) query.set('kind', kind);
      return apiFetch<UploadsPage>(`/api/accounts/${accountId}/uploads?${query}`, { raw: true });
    },
    placeholderData: (previous) => previous,
  });

export class UploadError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** What an upload answered: the stored upload, or a page the server wants opened (spec1 §4 'redirect {url}'). */
export type UploadOutcome = { upload: Upload } | { redirect: string };

const readCookie = (name: string) => {
  const part = document.cookie.split('; ').find((p) => p.startsWith(`${name}=`));
  return part ? decodeURIComponent(part.slice(name.length + 1)) : undefined;
};

/** The upload was cancelled by the person (spec1 §4: files added while it ran). */
export class UploadCancelled extends Error {}

const sendOnce = (url: string, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadCancelled('Upload cancelled'));
    const xhr = new XMLHttpRequest();
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.onabort = () => reject(new UploadCancelled('Upload cancelled'));
    xhr.open('POST', url);
    const { csrfCookieName, csrfHeaderName } = appSettings();
    const token = readCookie(csrfCookieName);
    if (token) xhr.setRequestHeader(csrfHeaderName, token);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new UploadError('The connection to the cloud was lost', false));
    const form = new FormData();
    form.append('uploadfile', file, file.name);
    xhr.send(form);
  });

/**
 * One file as multipart field uploadfile, with progress (fetch cannot report upload progress). A 401
 * opens the re-login dialog and sends again; the permanent statuses of spec1 §5 are not worth a retry.
 */
/**
 * What an answer to an upload means (spec1 §4, §5): 'redirect {url}' asks for a popup; a non-JSON
 * answer is 'Unexpected response from cloud'; an error's own message otherwise. Null for a 401, which
 * the caller answers with the re-login dialog and a second try.
 */
export const readUploadAnswer = (status: number, text: string): UploadOutcome | null => {
  const redirect = /^redirect (\S+)/.exec(text.trim());
  if (redirect?.[1]) return { redirect: redirect[1] };
  const permanent = UPLOAD_PERMANENT_ERROR_STATUSES.includes(status);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UploadError(MSG_UNEXPECTED_RESPONSE, permanent);
  }
  if (status >= 200 && status < 300) return { upload: (body as { results: Upload }).results };
  if (status === 401) return null;
  throw new UploadError(
    (body as Partial<ErrorBody> | null)?.error?.message ?? MSG_UNEXPECTED_RESPONSE,
    permanent,
  );
};

/**
 * One file as multipart field uploadfile, with progress (fetch cannot report upload progress). A 401
 * opens the re-login dialog and sends again; the permanent statuses of spec1 §5 are not worth a retry.
 */
export const uploadFile = async (
  url: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<UploadOutcome> => {
  for (;;) {
    const { status, text } = await sendOnce(url, file, onProgress, signal);
    const outcome = readUploadAnswer(status, text);
    if (outcome) return outcome;
    await relogin.request();
  }
};
