import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { AccessLog, loggerOptions, requestLoggerFactory } from './logging.ts';

const capture = (level: string) => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino(loggerOptions(level), stream), lines };
};

describe('a request logger', () => {
  it('is made only when a line is written, with the request id and the redaction of its parent', async () => {
    const { log, lines } = capture('warn');
    const child = vi.spyOn(log, 'child');
    const requestLog = requestLoggerFactory(log, { reqId: 'req-7' }, {});
    requestLog.info('not at warn');
    requestLog.debug({ password: 'x' }, 'nor this');
    expect(child).not.toHaveBeenCalled();

    requestLog.warn({ body: { password: 'Secret-Passw0rd' } }, 'written');
    requestLog.error('and this');
    expect(child).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toMatchObject([
      { reqId: 'req-7', msg: 'written', body: { password: '[redacted]' } },
      { reqId: 'req-7', msg: 'and this' },
    ]);
  });

  it("keeps a route's own level (Fastify's logLevel), above or below the parent's", async () => {
    const { log, lines } = capture('trace');
    const quiet = requestLoggerFactory(log, { reqId: 'a' }, { level: 'warn' });
    quiet.info('not written');
    quiet.warn('written');
    expect(quiet.level).toBe('warn');
    const { log: warnLog, lines: warnLines } = capture('warn');
    const loud = requestLoggerFactory(warnLog, { reqId: 'b' }, { level: 'debug' });
    loud.debug('written too');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => line.msg)).toEqual(['written']);
    expect(warnLines).toMatchObject([{ reqId: 'b', msg: 'written too' }]);
  });

  it('answers its level and makes grandchildren with the request id', async () => {
    const { log, lines } = capture('info');
    const requestLog = requestLoggerFactory(log, { reqId: 'c' }, {});
    expect(requestLog.level).toBe('info');
    requestLog.child({ part: 'upload' }).info('from a grandchild');
    requestLog.silent('never');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toMatchObject([{ reqId: 'c', part: 'upload', msg: 'from a grandchild' }]);
  });
});

describe('the access log', () => {
  const appLoggingAt = async (level: string) => {
    const { log, lines } = capture(level);
    const app = Fastify({
      loggerInstance: log,
      childLoggerFactory: requestLoggerFactory,
      logController: new AccessLog(log),
    });
    app.get('/ok', () => ({ ok: true }));
    app.get('/quiet', { logLevel: 'warn' }, () => ({ ok: true }));
    app.get('/fails', () => {
      throw new Error('broken');
    });
    await app.ready();
    return { app, lines };
  };
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('writes one line per request when it is answered, its secrets redacted', async () => {
    const { app, lines } = await appLoggingAt('info');
    await app.inject({ method: 'GET', url: '/ok?token=Secret-Token-1&page=2', remoteAddress: '10.1.2.3' });
    await settled();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      reqId: expect.any(String),
      method: 'GET',
      url: '/ok?token=%5Bredacted%5D&page=2',
      remoteAddress: '10.1.2.3',
      statusCode: 200,
      responseTime: expect.any(Number),
    });
    expect(JSON.stringify(lines)).not.toContain('Secret-Token-1');
    await app.close();
  });

  it("writes nothing below the logger's level or the route's own", async () => {
    const { app, lines } = await appLoggingAt('warn');
    await app.inject({ method: 'GET', url: '/ok' });
    const info = await appLoggingAt('info');
    await info.app.inject({ method: 'GET', url: '/quiet' });
    await settled();
    expect(lines).toEqual([]);
    expect(info.lines).toEqual([]);
    await app.close();
    await info.app.close();
  });

  it('still tells a failed request, with its status', async () => {
    const { app, lines } = await appLoggingAt('info');
    expect((await app.inject({ method: 'GET', url: '/fails' })).statusCode).toBe(500);
    await settled();
    expect(lines.filter((line) => line.msg === 'request completed')).toMatchObject([
      { method: 'GET', url: '/fails', statusCode: 500 },
    ]);
    await app.close();
  });
});
