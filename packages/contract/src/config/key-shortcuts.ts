import { z } from 'zod';
import { MSG_FIELD_EMPTY } from '../accounts/messages.ts';
import { idSchema, idTextSchema } from '../http/input.ts';

/** spec1 §6, from the narrowest: user (Myself), account, site, cloud (Whole cloud). */
export const KEY_SHORTCUT_LEVELS = ['user', 'account', 'site', 'cloud'] as const;
export type KeyShortcutLevel = (typeof KEY_SHORTCUT_LEVELS)[number];
export const KEY_SHORTCUT_LEVEL_LABELS: Record<KeyShortcutLevel, string> = {
  user: 'Myself',
  account: 'Account',
  site: 'Site',
  cloud: 'Whole cloud',
};

export const MSG_KEY_SHORTCUTS_SAVED = 'Key Shortcuts data has been saved successfully';
export const MSG_KEY_SHORTCUT_PARENT_LOOP =
  'A key shortcut set cannot have itself or one of its children as parent';
export const MSG_KEY_SHORTCUT_DEFAULT_HIDDEN = 'The default key shortcut set must stay visible';
export const MSG_KEY_SHORTCUT_LEVEL_REFUSED = 'You may not change key shortcuts at this level';

/** The page's context: which user, account and site the shortcuts are looked at from. */
export const keyShortcutContextSchema = z.object({
  accountId: idTextSchema.optional(),
  siteId: idTextSchema.optional(),
  userId: idTextSchema.optional(),
});
export type KeyShortcutContext = z.infer<typeof keyShortcutContextSchema>;

export const keyShortcutSetSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  parentId: z.number().int().nullable(),
  visible: z.boolean(),
  level: z.enum(KEY_SHORTCUT_LEVELS),
  isDefault: z.boolean().describe('The default set of the context'),
  children: z.array(z.number().int()).describe('Ids of the sets whose parent this is'),
});
export type KeyShortcutSet = z.infer<typeof keyShortcutSetSchema>;

export const keyShortcutSetUpdateSchema = z.object({
  name: z.string().trim().min(1, { error: MSG_FIELD_EMPTY }).max(100),
  parentId: idSchema.nullable(),
  visible: z.boolean(),
  level: z.enum(KEY_SHORTCUT_LEVELS),
});
export type KeyShortcutSetUpdate = z.infer<typeof keyShortcutSetUpdateSchema>;

/** PUT /api/keyshortcuts/{id}: the set plus the context fields. */
export const keyShortcutPutSchema = keyShortcutSetUpdateSchema.extend(keyShortcutContextSchema.shape);
/** PUT /api/keyshortcuts: an array of sets with their ids, applied together. */
export const keyShortcutBatchSchema = z
  .array(keyShortcutPutSchema.extend({ id: idSchema }))
  .min(1)
  .max(500);

export const defaultKeyShortcutSchema = z.object({
  data: z.object({
    keyshortcutId: idSchema,
    accountId: idSchema.optional(),
    siteId: idSchema.optional(),
  }),
});

export type DefaultKeyShortcut = z.infer<typeof defaultKeyShortcutSchema>['data'];

export const keyShortcutAccessLevelSchema = z.object({
  levels: z.array(z.enum(KEY_SHORTCUT_LEVELS)).describe('The levels the user may change here'),
  defaultLevel: z.enum(KEY_SHORTCUT_LEVELS),
});

/** spec1 §6: account if an account is in the page, else site, else cloud. */
export const defaultKeyShortcutLevel = (context: KeyShortcutContext): KeyShortcutLevel =>
  context.accountId ? 'account' : context.siteId ? 'site' : 'cloud';

/** The sets below `id` (its children, their children, …). */
export const keyShortcutDescendants = (
  sets: readonly Pick<KeyShortcutSet, 'id' | 'parentId'>[],
  id: number,
) => {
  const found = new Set<number>();
  let frontier = [id];
  while (frontier.length) {
    const next = sets.filter((s) => s.parentId !== null && frontier.includes(s.parentId) && !found.has(s.id));
    for (const s of next) found.add(s.id);
    frontier = next.map((s) => s.id);
  }
  return found;
};

/** spec1 §5: a set's parent choices exclude the set itself and its children. */
export const keyShortcutParentChoices = <T extends Pick<KeyShortcutSet, 'id' | 'parentId'>>(
  sets: readonly T[],
  id: number,
) => {
  const excluded = keyShortcutDescendants(sets, id).add(id);
  return sets.filter((s) => !excluded.has(s.id));
};

/** spec1 §6: changing a set at site, account or cloud level affects these levels too. */
export const keyShortcutAffectedLevels = (level: KeyShortcutLevel): KeyShortcutLevel[] =>
  level === 'user' ? [] : KEY_SHORTCUT_LEVELS.slice(0, KEY_SHORTCUT_LEVELS.indexOf(level));
