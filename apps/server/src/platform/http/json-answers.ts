import type { FastifyReply, FastifyRequest } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthEpoch, GenerationCache } from '../auth/auth-epoch.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Pages of a cached list kept per instance (each a page of at most a few hundred short rows). */
export const LIST_PAGES_KEPT = 1_000;

/** A list page's key: its session (whose rights decide what it shows) and its parsed query. */
export const sessionPageKey = (actor: { sessionIdHash: string }, query: object) =>
  `${actor.sessionIdHash}\n${JSON.stringify(query)}`;

/** The route's answer as the type provider would send it: checked against its 200 schema, then serialized. */
const serialize = (request: FastifyRequest, body: unknown) => {
  const url = request.routeOptions.url ?? request.url;
  const schema = (request.routeOptions.schema?.response as Record<number, unknown> | undefined)?.[200];
  if (!(schema instanceof z.ZodType))
    throw new Error(`${url} has no 200 response schema to check its answer`);
  const checked = z.safeEncode(schema, body);
  if (!checked.success) throw new ResponseSerializationError(request.method, url, { cause: checked.error });
  return JSON.stringify(checked.data);
};

/**
 * Answers kept per auth generation (GenerationCache) as the text they are sent as. The zod check and the
 * JSON.stringify of a cached page cost more than the rest of the request (a page of 50 accounts: about a
 * fifth of the server's time), so they run once, when the answer is read: Fastify sends a string with a JSON
 * content type as it is, without its serializer.
 */
export class JsonAnswers<K> {
  private readonly texts: GenerationCache<K, Promise<string>>;

  constructor(epoch: AuthEpoch, limit?: number) {
    this.texts = new GenerationCache(epoch, limit);
  }

  /** Sends the answer cached for `key` in `generation`, or `load`'s, checked and serialized. */
  async send(
    request: FastifyRequest,
    reply: FastifyReply,
    key: K,
    generation: number,
    load: () => Promise<unknown>,
  ) {
    const text = await this.texts.through(key, generation, async () => serialize(request, await load()));
    return reply.type(JSON_TYPE).send(text);
  }
}
