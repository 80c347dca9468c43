import { ERROR_CODES, MSG_FORBIDDEN, MSG_NOT_SIGNED_IN } from '@media/contract';

/** Status of each shared error code; areas add their own codes with a status beside them. */
const STATUS_OF_CODE: Record<string, number> = {
  [ERROR_CODES.validation]: 400,
  [ERROR_CODES.apiVersion]: 400,
  [ERROR_CODES.unauthenticated]: 401,
  [ERROR_CODES.reauth]: 401,
  [ERROR_CODES.forbidden]: 403,
  [ERROR_CODES.csrf]: 403,
  [ERROR_CODES.scope]: 403,
  [ERROR_CODES.notFound]: 404,
  [ERROR_CODES.conflict]: 409,
  [ERROR_CODES.tooLarge]: 413,
  [ERROR_CODES.unsupportedMediaType]: 415,
  [ERROR_CODES.rateLimited]: 429,
  [ERROR_CODES.internal]: 500,
};

/** The one domain error: services throw it, only the platform turns it into an HTTP answer. */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  /** What the client needs to answer the error (e.g. the options of notEnoughPublishData). */
  readonly data: unknown;

  constructor(
    code: string,
    message: string,
    options: { status?: number; fields?: Record<string, string>; data?: unknown } = {},
  ) {
    super(message);
    this.code = code;
    this.status = options.status ?? STATUS_OF_CODE[code] ?? 400;
    this.fields = options.fields;
    this.data = options.data;
  }
}

export const badRequest = (
  message: string,
  fields?: Record<string, string>,
  code: string = ERROR_CODES.validation,
) => new AppError(code, message, { status: 400, fields });
export const unauthenticated = (message: string = MSG_NOT_SIGNED_IN) =>
  new AppError(ERROR_CODES.unauthenticated, message);
export const forbidden = (message: string = MSG_FORBIDDEN) => new AppError(ERROR_CODES.forbidden, message);
export const notFound = (thing: string) => new AppError(ERROR_CODES.notFound, `${thing} not found`);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new AppError(ERROR_CODES.conflict, message, { fields });
