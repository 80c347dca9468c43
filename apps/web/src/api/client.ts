import {
  API_VERSION_HEADER,
  type ApiVersions,
  ERROR_CODES,
  type ErrorBody,
  errorText,
  MSG_UNEXPECTED_RESPONSE,
  RAW_RESPONSE_HEADER,
} from '@media/contract';
import { createReauthCoordinator, type ReauthCoordinator } from './reauth.ts';
import { createReloginCoordinator, type ReloginCoordinator } from './relogin.ts';
import { appSettings } from './settings.ts';

/** The server refused the read or has nothing the person can see there (403, 404): asking again will not help. */
export const isRefusedOrMissing = (error: unknown) =>
  error instanceof ApiError && (error.status === 403 || error.status === 404);

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly fields?: Record<string, string>,
    /** What the server gave to answer the error (notEnoughPublishData: the options to ask for). */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** spec1 §7 / §9: 429 is retried after Retry-After, else 1 s, up to 100 times. */
export const MAX_RATE_LIMIT_RETRIES = 100;
export const DEFAULT_RETRY_DELAY_MS = 1000;

export type ApiVersionKind = 'ingest' | 'nodes' | 'mediaUpdate';

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** A body sent as it is, with its content type (the metadata import's CSV), instead of JSON. */
  text?: { content: string; contentType: string };
  /** Send X-Api-Version for ingest and node calls. */
  apiVersion?: ApiVersionKind;
  /** Answer the whole body instead of unwrapping `results` (sends X-Raw-Response). */
  raw?: boolean;
  /** Sign-in calls answer 401 themselves; they must not open the re-login dialog. */
  noRelogin?: boolean;
  signal?: AbortSignal;
};

type Dependencies = {
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  readCookie: (name: string) => string | undefined;
  relogin: ReloginCoordinator;
  reauth: ReauthCoordinator;
};

const browserCookie = (name: string) => {
  const part = document.cookie.split('; ').find((p) => p.startsWith(`${name}=`));
  return part ? decodeURIComponent(part.slice(name.length + 1)) : undefined;
};

const withRetryParameter = (path: string, attempt: number) => {
  const url = new URL(path, 'http://placeholder');
  url.searchParams.set('_retry', String(attempt));
  return `${url.pathname}${url.search}`;
};

const parseBody = (text: string): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

export const createApiClient = (deps: Dependencies) => {
  let versions: Promise<ApiVersions> | undefined;
  const apiVersions = () => {
    versions ??= deps
      .fetch('/config/apiVersions.json', { credentials: 'same-origin' })
      .then((r) => r.json() as Promise<ApiVersions>)
      .catch((error: unknown) => {
        versions = undefined;
        throw error;
      });
    return versions;
  };

  const send = async (path: string, options: RequestOptions) => {
    const method = options.method ?? 'GET';
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.text) headers['content-type'] = options.text.contentType;
    else if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.raw) headers[RAW_RESPONSE_HEADER] = '1';
    if (options.apiVersion) headers[API_VERSION_HEADER] = (await apiVersions())[options.apiVersion];
    if (method !== 'GET') {
      const { csrfCookieName, csrfHeaderName } = appSettings();
      const token = deps.readCookie(csrfCookieName);
      if (token) headers[csrfHeaderName] = token;
    }
    return deps.fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      signal: options.signal,
      body: options.text?.content ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
  };

  const request = async <T>(path: string, options: RequestOptions = {}): Promise<T> => {
    let rateLimitRetries = 0;
    let url = path;
    for (;;) {
      const reauthsBefore = deps.reauth.confirmations();
      const response = await send(url, options);
      const body = parseBody(await response.text());
      if (response.ok) {
        if (options.raw) return body as T;
        // spec2 §5: an answer without its results is an error, not an empty success.
        if (!body || typeof body !== 'object' || !('results' in body))
          throw new ApiError(MSG_UNEXPECTED_RESPONSE, response.status, 'noresults');
        return (body as { results: T }).results;
      }
      if (response.status === 429 && rateLimitRetries < MAX_RATE_LIMIT_RETRIES) {
        rateLimitRetries += 1;
        const seconds = Number(response.headers.get('retry-after'));
        await deps.sleep(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_RETRY_DELAY_MS);
        url = withRetryParameter(path, rateLimitRetries);
        continue;
      }
      const error = (body as Partial<ErrorBody> | undefined)?.error;
      // A sensitive change wants a recent sign-in: the session stands, the password is asked again. Cancelled,
      // the change fails with the server's reason (MSG_REAUTH_REQUIRED: not imported, it would bring the
      // contract's schemas into the sign-in page).
      const wantsReauth = response.status === 401 && error?.code === ERROR_CODES.reauth;
      if (wantsReauth && (await deps.reauth.request(reauthsBefore))) continue;
      if (response.status === 401 && !wantsReauth && !options.noRelogin) {
        await deps.relogin.request(error?.message);
        continue;
      }
      throw new ApiError(errorText(body), response.status, error?.code, error?.fields, error?.data);
    }
  };

  return { request, apiVersions };
};

export const relogin = createReloginCoordinator();
export const reauth = createReauthCoordinator();

const client = createApiClient({
  fetch: (...args) => fetch(...args),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  readCookie: browserCookie,
  relogin,
  reauth,
});

/**
 * One call of the API: JSON in and out, anti-forgery header on writes, `results` unwrapped, 401 (re-login, or
 * the password again for a sensitive change) and 429 handled.
 */
export const apiFetch = client.request;

/** A query's retry rule: a refusal (4xx) is an answer, not a hiccup; anything else is tried 3 times. */
export const retryUnlessRefused = (count: number, error: Error) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 3;
