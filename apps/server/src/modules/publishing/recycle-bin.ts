import type { PublishContextKind, RecycledButton } from '@media/contract';
import { and, count, desc, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import { conflict, notFound } from '../../platform/errors.ts';
import { type Call, manageScope, ownerScope, publishButtonsChanged } from './scope.ts';
import { publishButtons, publishes } from './tables.ts';

export const MSG_NOT_IN_RECYCLE_BIN = 'The publishing button is not in the Recycle Bin';

const ownedBy = (kind: PublishContextKind, id: number): SQL =>
  kind === 'accounts' ? eq(publishButtons.accountId, id) : eq(publishButtons.siteId, id);

/**
 * GET /api/{ctx}/recycleBin: the trashed buttons of a context with the published items they took with them,
 * most recently trashed first (its managers).
 */
export const listRecycleBin = async ({
  ctx,
  actor,
  kind,
  id,
}: Call<{ kind: PublishContextKind; id: number }>): Promise<RecycledButton[]> => {
  await manageScope(ctx.db, actor, kind, id);
  const rows = await ctx.db
    .select({
      id: publishButtons.id,
      name: publishButtons.name,
      deletedAt: publishButtons.deletedAt,
      items: count(publishes.id),
    })
    .from(publishButtons)
    .leftJoin(
      publishes,
      and(eq(publishes.buttonId, publishButtons.id), eq(publishes.deletedAt, publishButtons.deletedAt)),
    )
    .where(and(ownedBy(kind, id), isNotNull(publishButtons.deletedAt)))
    .groupBy(publishButtons.id)
    .orderBy(desc(publishButtons.deletedAt), desc(publishButtons.id))
    .limit(500);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    trashedTime: (row.deletedAt as Date).toISOString(),
    publishedItems: row.items,
  }));
};

/** A trashed button its caller manages (404 for others and for a button that is not there). */
const requireTrashed = async (ctx: Call['ctx'], actor: Call['actor'], id: number) => {
  const [row] = await ctx.db.select().from(publishButtons).where(eq(publishButtons.id, id));
  if (!row) throw notFound('Publishing button');
  const owner = ownerScope(row);
  const scope = await manageScope(ctx.db, actor, owner.kind, owner.id);
  if (!row.deletedAt) throw conflict(MSG_NOT_IN_RECYCLE_BIN);
  return { row, scope };
};

/** POST /api/publishButtons/{id}/restore: the button and the items trashed with it come back, together. */
export const restoreButton = async ({ ctx, actor, id }: Call<{ id: number }>) => {
  const { scope } = await requireTrashed(ctx, actor, id);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(publishes)
      .set({ deletedAt: null })
      // Compared in the database: a timestamp read into JavaScript loses its microseconds.
      .where(
        and(
          eq(publishes.buttonId, id),
          sql`${publishes.deletedAt} = (select ${publishButtons.deletedAt} from ${publishButtons} where ${publishButtons.id} = ${id})`,
        ),
      );
    await tx
      .update(publishButtons)
      .set({ deletedAt: null, updatedAt: sql`now()` })
      .where(eq(publishButtons.id, id));
  });
  await publishButtonsChanged(ctx, scope.kind, scope.id, [id]);
  return { ok: true as const };
};

/** POST /api/publishButtons/{id}/purge: the trashed button and its published items are gone for good. */
export const purgeButton = async ({ ctx, actor, id }: Call<{ id: number }>) => {
  const { scope } = await requireTrashed(ctx, actor, id);
  // Its publishes go with it (foreign key cascade), in one statement.
  await ctx.db.delete(publishButtons).where(eq(publishButtons.id, id));
  await publishButtonsChanged(ctx, scope.kind, scope.id, [id]);
  return { ok: true as const };
};
