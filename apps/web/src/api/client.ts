import { type ErrorBody, MSG_GENERIC_ERROR } from '@media/contract';
import { appSettings } from './settings.ts';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

const readCookie = (name: string) =>
  document.cookie
    .split('; ')
    .find((part) => part.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/** The error text the product shows: `message (code)`, else the message, else the generic text. */
export const errorText = (body: Partial<ErrorBody> | undefined) => {
  const error = body?.error;
  if (error?.message && error.code) return `${error.message} (${error.code})`;
  return error?.message || MSG_GENERIC_ERROR;
};

type Options = { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; body?: unknown };

/** One call of the API: JSON in and out, anti-forgery header on writes, `results` unwrapped. */
export const apiFetch = async <T>(path: string, options: Options = {}): Promise<T> => {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') {
    const { csrfCookieName, csrfHeaderName } = appSettings();
    const token = readCookie(csrfCookieName);
    if (token) headers[csrfHeaderName] = decodeURIComponent(token);
  }
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const body = parsed as Partial<ErrorBody> | undefined;
    throw new ApiError(errorText(body), response.status, body?.error?.code, body?.error?.fields);
  }
  return (parsed as { results: T }).results;
};
