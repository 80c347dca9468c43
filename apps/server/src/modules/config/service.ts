import {
  CHANNELS,
  clashingExtraDataKeys,
  EXTRA_DATA_LIMITS,
  type ExtraDataScope,
  type ExtraDataUpdate,
  extraDataKeyOf,
  ingestFormatsProblem,
  isUploadFormatOptionKey,
  type KeyboardExpansionExport,
  keyboardExpansionXml,
  MSG_EXTRA_DATA_KEY_CLASH,
  MSG_EXTRA_DATA_TOO_MANY,
  MSG_KEY_MAP_NAME_IN_USE,
  MSG_NO_UPLOAD_FORMAT_OPTION,
  packIngestFormat,
  unpackIngestFormat,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { translateUniqueViolation } from '../../platform/db/errors.ts';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import { requireRight, requireUserManagement } from '../access/service.ts';
import * as repo from './repo.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

const OWNER_SCOPE = { accounts: 'account', sites: 'site', users: 'user' } as const;

/** Accounts: their managers; sites: site managers; users: themselves and whoever manages them. */
const requireExtraDataRight = async (ctx: AppContext, actor: Actor, scope: ExtraDataScope, id: number) => {
  if (scope === 'accounts') await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id });
  else if (scope === 'sites') await requireRight(ctx.db, actor, 'site.manage', { kind: 'site', id });
  else await requireUserManagement(ctx.db, actor, id);
};

export const getExtraData = async ({
  ctx,
  actor,
  scope,
  id,
}: Call<{ scope: ExtraDataScope; id: number }>) => {
  await requireExtraDataRight(ctx, actor, scope, id);
  return repo.findExtraData(ctx.db, { scope: OWNER_SCOPE[scope], scopeId: id });
};

/** Sets and deletes keys in one transaction, then answers the whole object. */
export const updateExtraData = async ({
  ctx,
  actor,
  scope,
  id,
  update,
}: Call<{ scope: ExtraDataScope; id: number; update: ExtraDataUpdate }>) => {
  await requireExtraDataRight(ctx, actor, scope, id);
  const owner = { scope: OWNER_SCOPE[scope], scopeId: id };
  const [clash] = clashingExtraDataKeys(Object.keys(update));
  if (clash !== undefined)
    throw new AppError('keyclash', MSG_EXTRA_DATA_KEY_CLASH, {
      status: 409,
      fields: { [clash]: MSG_EXTRA_DATA_KEY_CLASH },
    });
  const entries = Object.entries(update).map(([key, value]) => [key.trim(), value] as const);
  if (scope === 'accounts') {
    const refused = entries.find(([key]) => isUploadFormatOptionKey(extraDataKeyOf(key) ?? key));
    if (refused)
      throw new AppError('noUploadFormatOption', MSG_NO_UPLOAD_FORMAT_OPTION, {
        status: 400,
        fields: { [refused[0]]: MSG_NO_UPLOAD_FORMAT_OPTION },
      });
  }
  const toSet = entries.filter((entry): entry is [string, string] => entry[1] !== null);
  const toDelete = entries.filter(([, value]) => value === null).map(([key]) => key);
  await ctx.db.transaction(async (tx) => {
    if (toDelete.length) await repo.deleteExtraData(tx, owner, toDelete);
    if (toSet.length) await repo.upsertExtraData(tx, owner, toSet);
    if ((await repo.countExtraData(tx, owner)) > EXTRA_DATA_LIMITS.keysPerObject)
      throw badRequest(MSG_EXTRA_DATA_TOO_MANY);
  });
  await ctx.publish(CHANNELS.extraData(scope, id), [id]);
  return repo.findExtraData(ctx.db, owner);
};

export const getIngestFormats = async ({ ctx, actor, accountId }: Call<{ accountId: number }>) => {
  await requireRight(ctx.db, actor, 'account.use', { kind: 'account', id: accountId });
  return repo.findIngestFormats(ctx.db, accountId);
};

/** Replaces the list; unknown or repeated entries are refused, the rest stored normalised. */
export const saveIngestFormats = async ({
  ctx,
  actor,
  accountId,
  formats,
}: Call<{ accountId: number; formats: string[] }>) => {
  await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id: accountId });
  const problem = ingestFormatsProblem(formats);
  if (problem) throw badRequest(problem);
  const normalised = formats.map((stored) => packIngestFormat(unpackIngestFormat(stored).format));
  await ctx.db.transaction((tx) => repo.replaceIngestFormats(tx, accountId, normalised));
  await ctx.publish(CHANNELS.ingestFormats(accountId), [accountId]);
  return normalised;
};

export const listKeyMaps = async ({ ctx, actor, accountId }: Call<{ accountId: number }>) => {
  await requireRight(ctx.db, actor, 'account.use', { kind: 'account', id: accountId });
  return repo.findKeyMaps(ctx.db, accountId);
};

/** Export: a copy of a map the user manages into another account they manage, under a new name. */
export const exportKeyMap = async ({ ctx, actor, body }: Call<{ body: KeyboardExpansionExport }>) => {
  const source = await repo.findKeyMap(ctx.db, body.cloneFromId);
  if (!source) throw notFound('Keyboard expansion map');
  await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id: source.accountId });
  await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id: body.accountId });
  let id: number;
  try {
    id = await repo.insertKeyMap(ctx.db, {
      accountId: body.accountId,
      name: body.name,
      expansions: source.expansions,
    });
  } catch (error) {
    throw translateUniqueViolation(error, () =>
      conflict(MSG_KEY_MAP_NAME_IN_USE, { name: MSG_KEY_MAP_NAME_IN_USE }),
    );
  }
  await ctx.publish(CHANNELS.keyboardExpansions(body.accountId), [id]);
  return { id, name: body.name, accountId: body.accountId };
};

/** The Download as XML file; the map must belong to the account named in the link. */
export const keyMapXml = async ({ ctx, actor, accountId, id }: Call<{ accountId: number; id: number }>) => {
  await requireRight(ctx.db, actor, 'account.use', { kind: 'account', id: accountId });
  const map = await repo.findKeyMap(ctx.db, id);
  if (!map || map.accountId !== accountId) throw notFound('Keyboard expansion map');
  return { name: map.name, xml: keyboardExpansionXml(map.name, map.expansions) };
};

/** Used by the accounts module's clone, inside its transaction. */
export const copyAccountConfiguration = (tx: DbOrTx, fromId: number, toId: number) =>
  repo.copyAccountConfiguration(tx, fromId, toId);

export * from './columns.ts';
export * from './key-shortcuts.ts';
