import { PUBLISH_HELP_MESSAGES, type PublishHelpOptions, type ServerFormAction } from '@media/contract';
import { badRequest, forbidden } from '../../platform/errors.ts';
import { treeAccess } from '../nodes/access.ts';
import { roleAllowed } from './buttons.ts';
import { republish, requirePublish } from './publishes.ts';
import * as buttonsRepo from './repo.ts';
import { findPublishWork } from './run-repo.ts';
import type { Call } from './scope.ts';
import { consentUrl, findConnection } from './youtube.ts';

type PublishRow = Awaited<ReturnType<typeof requirePublish>>;

const message = (
  text: string,
  type: 'danger' | 'warning' | 'success' | 'info' = 'danger',
): ServerFormAction => ({
  action: 'display-message',
  message: text,
  type,
});

/** Who may publish with the button in the account may connect its channel for it and publish again. */
const requirePublishRight = async (ctx: Call['ctx'], actor: Call['actor'], row: PublishRow) => {
  const button = await buttonsRepo.findButton(ctx.db, row.buttonId);
  const access = await treeAccess(ctx.db, actor, { id: row.accountId });
  if (!button || !access.permissions.has('canPublish') || !roleAllowed(button.restrictions, access.roleId))
    throw forbidden();
  return button;
};

const usesYoutube = (button: NonNullable<Awaited<ReturnType<typeof buttonsRepo.findButton>>>) =>
  button.phases.some((phase) => phase.phase.network.nodes.some((node) => node.moduleId === 'youtube'));

/** The first answer: what the item's state calls for. */
const firstHelp = async (ctx: Call['ctx'], row: PublishRow, options: PublishHelpOptions) => {
  switch (row.status) {
    case 'queued':
      return message(PUBLISH_HELP_MESSAGES.queued, 'info');
    case 'running':
      return message(PUBLISH_HELP_MESSAGES.running(row.progress), 'info');
    case 'deleted':
      return message(PUBLISH_HELP_MESSAGES.deleted, 'warning');
    case 'done':
      return message(
        PUBLISH_HELP_MESSAGES.done(row.outputs.map((output) => output.location).join(', ')),
        'success',
      );
  }
  const button = await buttonsRepo.findButton(ctx.db, row.buttonId);
  if (button && usesYoutube(button) && !(await findConnection(ctx, row.accountId))) {
    if (!ctx.config.google) return message(PUBLISH_HELP_MESSAGES.youtubeNotConfigured);
    return {
      action: 'set-options',
      options: { ...options, step: 'connect-youtube' },
    } satisfies ServerFormAction;
  }
  return message(PUBLISH_HELP_MESSAGES.failed(row.error ?? 'no reason was given'));
};

/**
 * GET/POST /api/publishes/{id}/help (spec3 §4 Publish help): a server form action for the item's state.
 * A failed YouTube publish walks the person through connecting the account's channel: set-options
 * 'connect-youtube' → open-url (Google's consent screen); once they are back, 'connect-youtube' again (the
 * web's Continue) or 'check-youtube' → set-options 'republish' → the item is published again.
 */
export const publishHelp = async ({
  ctx,
  actor,
  id,
  options,
  publishMediaId,
}: Call<{ id: number; options: PublishHelpOptions; publishMediaId?: number }>): Promise<ServerFormAction> => {
  const row = await requirePublish(ctx, actor, id);
  if (publishMediaId !== undefined && (await findPublishWork(ctx.db, id))?.media?.id !== publishMediaId)
    throw badRequest(PUBLISH_HELP_MESSAGES.mediaNotPublished);
  switch (options.step) {
    case undefined:
      return firstHelp(ctx, row, options);
    case 'connect-youtube': {
      await requirePublishRight(ctx, actor, row);
      if (!ctx.config.google) return message(PUBLISH_HELP_MESSAGES.youtubeNotConfigured);
      // Continue after the consent screen sends the same step again: connected by now, publish again.
      if (await findConnection(ctx, row.accountId))
        return { action: 'set-options', options: { ...options, step: 'republish' } };
      return { action: 'open-url', url: consentUrl(ctx, ctx.config.google, row.accountId, actor.userId) };
    }
    case 'check-youtube':
      await requirePublishRight(ctx, actor, row);
      return (await findConnection(ctx, row.accountId))
        ? { action: 'set-options', options: { ...options, step: 'republish' } }
        : message(PUBLISH_HELP_MESSAGES.youtubeStillNotConnected, 'warning');
    case 'republish': {
      const again = await republish({ ctx, actor, id });
      return message(PUBLISH_HELP_MESSAGES.publishingAgain(again.id), 'success');
    }
  }
};
