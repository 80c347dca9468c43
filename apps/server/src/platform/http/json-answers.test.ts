import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuthEpoch } from '../auth/auth-epoch.ts';
import type { Db } from '../db/client.ts';
import { JsonAnswers } from './json-answers.ts';

const itemSchema = z.object({ id: z.number(), when: z.iso.datetime() });
const answerSchema = z.object({ results: z.array(itemSchema) });

/** An epoch told of changes as the embedded database tells it (a NOTIFY), so a test moves it by hand. */
const pushedEpoch = async () => {
  let notify = () => {};
  const epoch = await AuthEpoch.open({
    db: {} as Db,
    listen: async (_channel, callback) => {
      notify = callback;
      return async () => {};
    },
  });
  return { epoch, change: () => notify() };
};

const appWith = async (load: () => Promise<unknown>) => {
  const { epoch, change } = await pushedEpoch();
  const answers = new JsonAnswers<string>(epoch);
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const schema = { response: { 200: answerSchema } };
  typed.get('/cached', { schema }, async (request, reply) =>
    answers.send(request, reply, 'key', await epoch.current(), load),
  );
  typed.get('/plain', { schema }, async () => answerSchema.parse(await load()));
  return { app, change };
};

describe('JsonAnswers', () => {
  let close = async () => {};
  afterEach(() => close());

  it('sends what the route would send, reads once per generation, and again after a change', async () => {
    let reads = 0;
    const { app, change } = await appWith(async () => {
      reads += 1;
      return { results: [{ id: reads, when: '2026-11-27T20:00:00.000Z' }], extra: 'not in the schema' };
    });
    close = () => app.close();
    const cached = await app.inject('/cached');
    const plain = await app.inject('/plain');
    expect(cached.statusCode).toBe(200);
    expect(cached.headers['content-type']).toBe(plain.headers['content-type']);
    expect(cached.json()).toEqual({ results: [{ id: 1, when: '2026-11-27T20:00:00.000Z' }] });
    expect((await app.inject('/cached')).json()).toEqual(cached.json());
    expect(reads).toBe(2);
    change();
    expect((await app.inject('/cached')).json()).toEqual({
      results: [{ id: 3, when: '2026-11-27T20:00:00.000Z' }],
    });
  });

  it('answers 500 for an answer its schema refuses, and keeps nothing of it', async () => {
    let reads = 0;
    const { app } = await appWith(async () => {
      reads += 1;
      return { results: [{ id: 'one' }] };
    });
    close = () => app.close();
    expect((await app.inject('/cached')).statusCode).toBe(500);
    expect((await app.inject('/cached')).statusCode).toBe(500);
    expect(reads).toBe(2);
  });
});
