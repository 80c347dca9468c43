import { z } from 'zod';
import { idSchema, idTextSchema } from '../http/input.ts';

export const MSG_KEY_MAP_NAME_EMPTY = 'This field cannot be empty';
export const MSG_KEY_MAP_NAME_IN_USE = 'This name is already in use';
export const MSG_KEY_MAP_SAVED = 'New key map name saved successfully';
export const MSG_NO_KEY_MAPS = 'No Keyboard Expansion Maps Defined: please create them in the editor first';
export const KEY_MAP_NAME_MAX = 100;

export const keyboardExpansionMapSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  accountId: z.number().int(),
});
export type KeyboardExpansionMap = z.infer<typeof keyboardExpansionMapSchema>;

/** One abbreviation the editor expands to its text as it is typed. */
export const keyboardExpansionSchema = z.object({ abbreviation: z.string(), text: z.string() });
export type KeyboardExpansion = z.infer<typeof keyboardExpansionSchema>;

export const keyboardExpansionsQuerySchema = z.object({ accountId: idTextSchema });

/** POST /api/keyboardExpansions: copy the map cloneFromId into accountId under a new name. */
export const keyboardExpansionExportSchema = z.object({
  accountId: idSchema,
  name: z.string().trim().min(1, { error: MSG_KEY_MAP_NAME_EMPTY }).max(KEY_MAP_NAME_MAX),
  cloneFromId: idSchema,
});
export type KeyboardExpansionExport = z.infer<typeof keyboardExpansionExportSchema>;

/** spec1 §5: the export row's new name, checked against the names of the target account's maps. */
export const keyMapNameProblem = (name: string, targetNames: readonly string[]) => {
  const trimmed = name.trim();
  if (!trimmed) return MSG_KEY_MAP_NAME_EMPTY;
  if (targetNames.some((n) => n.trim().toLowerCase() === trimmed.toLowerCase()))
    return MSG_KEY_MAP_NAME_IN_USE;
  return undefined;
};

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );

/** The Download as XML file of a map. */
export const keyboardExpansionXml = (name: string, expansions: readonly KeyboardExpansion[]) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<keyboardExpansionMap name="${escapeXml(name)}">`,
    ...expansions.map(
      (e) => `  <expansion abbreviation="${escapeXml(e.abbreviation)}">${escapeXml(e.text)}</expansion>`,
    ),
    '</keyboardExpansionMap>',
    '',
  ].join('\n');
