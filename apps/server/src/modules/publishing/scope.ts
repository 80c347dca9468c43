import { CHANNELS, hasRight, type PublishContextKind } from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { findAncestry, visibleSiteIds } from '../access/service.ts';
import type * as repo from './repo.ts';

export type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

/** A publishing context (spec3 §7 ctx) as the caller sees it. */
export type PublishScope = {
  kind: PublishContextKind;
  id: number;
  /** The site of the context: itself, or the account's. */
  siteId: number;
  /** Whether the caller manages the context's buttons and icons (DESIGN.md Rights). */
  manager: boolean;
  /** Who owns what is created here. */
  owner: repo.Owner;
};

/**
 * The context, once the caller may read it. Accounts: their users read, their managers (and site,
 * reseller managers, administrators) manage; a session acting as a non-manager role reads only. Sites:
 * only their managers; someone with an account on the site gets 403, anyone else 404.
 */
export const readScope = async (db: DbOrTx, actor: Actor, kind: PublishContextKind, id: number) => {
  const rights = await actor.rights();
  if (kind === 'accounts') {
    const ancestry = await findAncestry(db, { kind: 'account', id });
    if (!ancestry || !hasRight(rights, 'account.use', ancestry)) throw notFound('Account');
    return {
      kind,
      id,
      siteId: ancestry.siteId as number,
      manager: hasRight(rights, 'account.manage', ancestry),
      owner: { accountId: id },
    } satisfies PublishScope;
  }
  const ancestry = await findAncestry(db, { kind: 'site', id });
  if (!ancestry) throw notFound('Site');
  if (!hasRight(rights, 'site.manage', ancestry)) {
    const visible = await visibleSiteIds(db, rights);
    if (visible === 'all' || visible.includes(id)) throw forbidden();
    throw notFound('Site');
  }
  return { kind, id, siteId: id, manager: true, owner: { siteId: id } } satisfies PublishScope;
};

/** The context, once the caller may manage it: 404 when they cannot see it, 403 when they only read. */
export const manageScope = async (db: DbOrTx, actor: Actor, kind: PublishContextKind, id: number) => {
  const scope = await readScope(db, actor, kind, id);
  if (!scope.manager) throw forbidden();
  return scope;
};

/** The context that owns a button or an icon. */
export const ownerScope = (row: { accountId: number | null; siteId: number | null }) =>
  row.accountId !== null
    ? { kind: 'accounts' as const, id: row.accountId }
    : { kind: 'sites' as const, id: row.siteId as number };

export const publishButtonsChanged = (ctx: AppContext, kind: PublishContextKind, id: number, ids: number[]) =>
  ctx.publish(CHANNELS.publishButtons(kind, id), ids);

export const publishIconsChanged = (ctx: AppContext, kind: PublishContextKind, id: number, ids: number[]) =>
  ctx.publish(CHANNELS.publishIcons(kind, id), ids);
