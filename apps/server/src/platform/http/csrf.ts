// The cookie plugin's additions to the request and reply types (request.cookies, reply.setCookie).
import type {} from '@fastify/cookie';
import { ERROR_CODES, MSG_CSRF } from '@media/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { hmac, randomToken, safeEqual } from '../crypto.ts';
import { AppError } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Double-submit anti-forgery token: cookie and header must match. Once signed in, the token is
 * `random.hmac(session, random)`, so a token planted before sign-in or taken from another session fails.
 */
export class CsrfGuard {
  constructor(
    private readonly config: Pick<Config, 'csrfCookieName' | 'csrfHeaderName'>,
    private readonly secretKey: string,
  ) {}

  issue(sessionIdHash?: string) {
    const random = randomToken(24);
    return sessionIdHash ? `${random}.${hmac(this.secretKey, `${sessionIdHash}.${random}`)}` : random;
  }

  private boundTo(token: string, sessionIdHash: string) {
    const [random, mac, extra] = token.split('.');
    if (!random || !mac || extra !== undefined) return false;
    return safeEqual(mac, hmac(this.secretKey, `${sessionIdHash}.${random}`));
  }

  setCookie(reply: FastifyReply, token: string, secure: boolean) {
    reply.setCookie(this.config.csrfCookieName, token, {
      path: '/',
      sameSite: 'lax',
      httpOnly: false,
      secure,
    });
  }

  /** Gives a browser without a token one, so the page can send it on its first write. */
  ensureCookie(request: FastifyRequest, reply: FastifyReply, secure: boolean) {
    if (!request.cookies[this.config.csrfCookieName]) this.setCookie(reply, this.issue(), secure);
  }

  check(request: FastifyRequest, sessionIdHash: string | undefined) {
    if (SAFE_METHODS.has(request.method)) return;
    const fetchSite = request.headers['sec-fetch-site'];
    if (typeof fetchSite === 'string') {
      if (fetchSite === 'cross-site') throw new AppError(ERROR_CODES.csrf, MSG_CSRF);
    } else if (typeof request.headers.origin === 'string' && request.headers.origin !== 'null') {
      const originHost = URL.canParse(request.headers.origin) ? new URL(request.headers.origin).host : '';
      if (originHost !== request.headers.host) throw new AppError(ERROR_CODES.csrf, MSG_CSRF);
    }
    const cookie = request.cookies[this.config.csrfCookieName];
    const header = request.headers[this.config.csrfHeaderName.toLowerCase()];
    if (!cookie || typeof header !== 'string' || !safeEqual(cookie, header)) {
      throw new AppError(ERROR_CODES.csrf, MSG_CSRF);
    }
    if (sessionIdHash && !this.boundTo(cookie, sessionIdHash)) throw new AppError(ERROR_CODES.csrf, MSG_CSRF);
  }
}
