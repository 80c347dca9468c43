import { API_TOKEN_PREFIX } from '@media/contract';
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { type Bindings, type ChildLoggerOptions, type LoggerOptions, levels, stdSerializers } from 'pino';

/** Query values with these names never reach the log. */
const SECRET_QUERY_NAMES =
  /^(token|resettoken|resetType|password|code|mfacode|sessionid|csrftoken|secret|key|invite|state)$/i;

/**
 * Path segments that are secrets themselves: the invitation token of the API and of the invitation link
 * page, however the path is spelled (a mistyped one still carries the token). Reset tokens travel in the
 * query, agent tokens in the Authorization header.
 */
const SECRET_PATH_SEGMENTS = [/^(\/+api\/+invitations\/+)[^/?#]+/i, /^(\/+invite\/+)[^/?#]+/i];

const REDACTED = '[redacted]';

export const redactUrl = (url: string) => {
  const at = url.indexOf('?');
  let pathPart = at === -1 ? url : url.slice(0, at);
  for (const pattern of SECRET_PATH_SEGMENTS) pathPart = pathPart.replace(pattern, `$1${REDACTED}`);
  if (at === -1) return pathPart;
  const params = new URLSearchParams(url.slice(at + 1));
  // An API token pasted into an address (refused, never used) is a secret whatever its name.
  for (const [name, value] of [...params.entries()])
    if (SECRET_QUERY_NAMES.test(name) || value.startsWith(API_TOKEN_PREFIX)) params.set(name, REDACTED);
  return `${pathPart}?${params.toString()}`;
};

/** Paths pino replaces before anything is written: secrets in headers and in logged objects. */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrftoken"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.mfaCode',
  '*.token',
  '*.resetToken',
  '*.sessionId',
  '*.secret',
  '*.cookie',
];

type QueryError = Error & { params?: unknown; cause?: unknown };

/** Shorter string parameters are too common (ids, flags) to hunt for in a message without mangling it. */
const MIN_HUNTED_VALUE_LENGTH = 6;

/**
 * The bound values of a failed query, through the error and its causes: Drizzle's DrizzleQueryError puts
 * them in `params` and in its message ("Failed query: … params: …"); PGlite's error carries `params` too.
 */
const queryParamsOf = (error: unknown) => {
  const leaks: string[] = [];
  const values: string[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 10; e = (e as QueryError).cause, depth++) {
    const params = (e as QueryError).params;
    if (params === undefined) continue;
    leaks.push(`\nparams: ${String(params)}`);
    for (const value of Array.isArray(params) ? params : [params])
      if (typeof value === 'string' && value.length >= MIN_HUNTED_VALUE_LENGTH) values.push(value);
  }
  return { leaks, values };
};

/**
 * Errors as pino's standard serializer writes them, without the bound values of a failed query: user
 * names, token hashes and storage paths travel as parameters. The SQL text (with its $1 placeholders)
 * stays: that is what tells what failed. PostgreSQL's `detail` quotes key values, so those go too.
 */
export const errSerializer = (error: unknown) => {
  const serialized = stdSerializers.err(error as Error) as unknown;
  if (!(error instanceof Error) || typeof serialized !== 'object' || serialized === null) return serialized;
  const out = serialized as Record<string, unknown>;
  const { leaks, values } = queryParamsOf(error);
  const clean = (text: string) => {
    let result = text;
    for (const leak of leaks) result = result.split(leak).join(`\nparams: ${REDACTED}`);
    for (const value of values) result = result.split(value).join(REDACTED);
    return result;
  };
  for (const key of ['message', 'stack'] as const)
    if (typeof out[key] === 'string') out[key] = clean(out[key] as string);
  delete out.params;
  delete out.queryOptions;
  if (typeof out.detail === 'string') out.detail = clean(out.detail).replace(/=\(.*\)/s, `=(${REDACTED})`);
  return out;
};

export const loggerOptions = (level: string): LoggerOptions => ({
  level,
  redact: { paths: REDACT_PATHS, censor: REDACTED },
  serializers: {
    // Our own: only what is useful, never headers or bodies.
    req: (request: FastifyRequest) => ({
      method: request.method,
      url: redactUrl(request.url),
      remoteAddress: request.ip,
    }),
    err: errSerializer,
  },
});

type WrittenLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** pino's levels by name ('silent' is not among them: nothing is written at it). */
const LEVEL_VALUES: Record<string, number> = levels.values;

/** Whether a logger at `threshold` writes a line at `level`. */
const writesAt = (threshold: string, level: WrittenLevel) =>
  (LEVEL_VALUES[level] ?? 0) >= (LEVEL_VALUES[threshold] ?? Number.POSITIVE_INFINITY);

/**
 * A request's logger (pino's child with the request id), made only when something is written through it:
 * making one per request cost a twentieth of a cached GET (redaction runs over its bindings), and at the
 * levels we run at most requests write nothing.
 */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private real() {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level() {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  private write(level: WrittenLevel, args: unknown[]) {
    if (!writesAt(this.level, level)) return;
    (this.real()[level] as (...written: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions) {
    return this.real().child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: each request's logger is a RequestLogger. */
export const requestLoggerFactory = (
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger => new RequestLogger(logger, bindings, options);

/**
 * Fastify's request lines as one line per request, written when it is answered: its request id, method, URL
 * (secrets redacted), address, status and time. Fastify writes two (one on arrival) with its request and
 * reply objects for pino to serialize and redact, which at LOG_LEVEL=info cost more than the rest of a cached
 * GET; this line is made of plain values, with no request logger made.
 */
export class AccessLog extends LogController {
  /** The app's logger without redaction, for the plain lines: pino's wildcard redaction was most of their cost. */
  private readonly plain: FastifyBaseLogger;

  /** `log`, redacting, writes the lines of failed requests (their errors may carry anything). */
  constructor(private readonly log: FastifyBaseLogger) {
    super();
    this.plain = log.child({}, { redact: [] });
  }

  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const level = error ? 'error' : 'info';
    // The request's logger knows the route's own level (Fastify's logLevel option).
    if (this.isLogDisabled(request) || !writesAt(request.log.level, level)) return;
    const line = {
      reqId: request.id,
      method: request.method,
      url: redactUrl(request.url),
      remoteAddress: request.ip,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) this.log.error({ ...line, err: error }, 'request errored');
    else this.plain.info(line, 'request completed');
  }
}
