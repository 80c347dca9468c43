import {
  accountPath,
  CHANNELS,
  NODE_MESSAGES,
  type NotEnoughPublishData,
  PUBLISH_RUN_MESSAGES,
  publishButtonNameOf,
  publishOptionsNeeded,
  splitAccountPath,
  type TransferResult,
} from '@media/contract';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, forbidden } from '../../platform/errors.ts';
import { requireNodeAt, treeAccess } from '../nodes/access.ts';
import { roleAllowed } from './buttons.ts';
import { queuePublishes } from './runs.ts';
import { publishButtons } from './tables.ts';

type Access = Awaited<ReturnType<typeof treeAccess>>;

/**
 * The enabled button a destination path names in the caller's account (its own or its site's), when the
 * caller may publish there: the role's canPublish and the button's role restrictions.
 */
const runnableButton = async (ctx: AppContext, access: Access, name: string) => {
  const [button] = await ctx.db
    .select()
    .from(publishButtons)
    .where(
      and(
        or(eq(publishButtons.accountId, access.account.id), eq(publishButtons.siteId, access.account.siteId)),
        isNull(publishButtons.deletedAt),
        eq(publishButtons.enabled, true),
        eq(sql`lower(${publishButtons.name})`, name.toLowerCase()),
      ),
    )
    .orderBy(publishButtons.accountId)
    .limit(1);
  if (!button) return undefined;
  const allowed = access.permissions.has('canPublish') && roleAllowed(button.restrictions, access.roleId);
  return { button, allowed };
};

/** The publishing button a destination path names, or undefined when it names none (a plain folder). */
export const publishTarget = async (ctx: AppContext, actor: Actor, dstPath: string) => {
  const { accountName, innerPath } = splitAccountPath(dstPath);
  const name = publishButtonNameOf(innerPath);
  if (!name) return undefined;
  const access = await treeAccess(ctx.db, actor, { name: accountName });
  const found = await runnableButton(ctx, access, name);
  return found ? { ...found, access } : undefined;
};

/**
 * POST /api/nodesTransfer with operation publish: one publish of the button per node, queued in one
 * transaction (DESIGN "Publishing"). Sources are media of the button's account that the caller may view.
 */
export const publishTransfer = async (
  ctx: AppContext,
  actor: Actor,
  request: { srcPaths: string[]; dstPath: string; userPublishData?: Record<string, unknown> },
): Promise<(TransferResult & { publishIds: number[] }) | undefined> => {
  const target = await publishTarget(ctx, actor, request.dstPath);
  if (!target) return undefined;
  if (!target.allowed) throw forbidden();
  const nodeIds: number[] = [];
  for (const path of request.srcPaths) {
    const { access, node } = await requireNodeAt(ctx.db, actor, path);
    if (access.account.id !== target.access.account.id)
      throw badRequest(NODE_MESSAGES.otherAccount, { srcPath: NODE_MESSAGES.otherAccount });
    if (node.type === 'folder' || node.mediaId === null) {
      const refusal = PUBLISH_RUN_MESSAGES.notMedia(accountPath(access.account.name, node.path));
      throw badRequest(refusal, { srcPath: refusal });
    }
    nodeIds.push(node.id);
  }
  const [phase] = target.button.phases;
  const needed = phase ? publishOptionsNeeded(phase.phase, request.userPublishData) : [];
  if (needed.length > 0) {
    const data: NotEnoughPublishData = {
      nodes: request.srcPaths,
      title: PUBLISH_RUN_MESSAGES.optionsTitle(target.button.name),
      schema: needed,
    };
    throw new AppError(NODE_MESSAGES.notEnoughPublishData, PUBLISH_RUN_MESSAGES.optionsNeeded, {
      status: 400,
      data,
    });
  }
  const publishIds = await ctx.db.transaction((tx) =>
    queuePublishes(
      ctx,
      tx,
      {
        buttonId: target.button.id,
        accountId: target.access.account.id,
        userId: actor.userId,
        options: request.userPublishData ?? {},
      },
      nodeIds,
    ),
  );
  await ctx.publish(CHANNELS.publishes(target.access.account.id), publishIds);
  const dstPath = accountPath(target.access.account.name, `/Publish/${target.button.name}`);
  return {
    operation: 'publish',
    nodes: request.srcPaths.map((from) => ({ from, to: dstPath })),
    message: NODE_MESSAGES.publishedOn(dstPath),
    publishIds,
  };
};
