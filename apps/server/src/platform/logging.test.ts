import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { loggerOptions, requestLoggerFactory } from './logging.ts';

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
