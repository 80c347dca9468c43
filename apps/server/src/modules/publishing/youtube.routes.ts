import { PUBLISH_HELP_MESSAGES } from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import { byId, findAccountRow } from '../accounts/repo.ts';
import { connectChannel, verifyState, YOUTUBE_CALLBACK_PATH } from './youtube.ts';

const callbackQuerySchema = z.object({
  state: z.string().max(500).default(''),
  code: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
});

/**
 * Where Google's consent screen sends the popup back: the code becomes the account's channel connection.
 * The state must be this cloud's, unexpired, and the signed-in user's own (nobody links a channel to an
 * account through another person's browser). Answers a plain sentence for the popup.
 */
export const registerYoutubeRoutes = (fastify: FastifyInstance, ctx: AppContext) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    YOUTUBE_CALLBACK_PATH.replace(/^\/api/, ''),
    {
      schema: {
        tags: ['publishing'],
        description: "Google's OAuth answer for a YouTube connection (opened in the consent popup)",
        querystring: callbackQuerySchema,
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const { state, code, error } = request.query;
      const link = verifyState(ctx.secretKey, state);
      const answer = async () => {
        if (!ctx.config.google) return PUBLISH_HELP_MESSAGES.youtubeNotConfigured;
        if (!link || link.userId !== actor.userId)
          return PUBLISH_HELP_MESSAGES.youtubeConnectFailed('the answer is not for this session, or too old');
        if (error || !code) return PUBLISH_HELP_MESSAGES.youtubeConnectFailed(error ?? 'Google sent no code');
        const account = await findAccountRow(ctx.db, byId(link.accountId));
        if (!account) return PUBLISH_HELP_MESSAGES.youtubeConnectFailed('the account no longer exists');
        try {
          const channel = await connectChannel(ctx, ctx.config.google, { ...link, code });
          return PUBLISH_HELP_MESSAGES.youtubeConnected(channel, account.account.name);
        } catch (failure) {
          request.log.warn({ err: failure }, 'YouTube connection failed');
          return PUBLISH_HELP_MESSAGES.youtubeConnectFailed((failure as Error).message);
        }
      };
      const text = await answer();
      return reply
        .status(text.startsWith('The YouTube channel') ? 200 : 400)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(text);
    },
  );
};
