import { z } from 'zod';
import { MSG_FIELD_REQUIRED } from '../accounts/messages.ts';
import { MSG_NOTHING_TO_CHANGE } from '../http/input.ts';

/** The objects that carry extra data, as they appear in `/api/{scope}/{id}/extraData`. */
export const EXTRA_DATA_SCOPES = ['accounts', 'sites', 'users'] as const;
export type ExtraDataScope = (typeof EXTRA_DATA_SCOPES)[number];

/**
 * spec1 §3: keys are stored with a prefix, so the entries people add never collide with the options
 * the product itself keeps on an object.
 */
export const EXTRA_DATA_KEY_PREFIX = 'extra_';
/** The data key of the upload format option: refused on account pages, where Ingest Formats set it. */
export const UPLOAD_FORMAT_OPTION_KEY = 'upload_format';
export const EXTRA_DATA_LIMITS = { key: 100, value: 4000, keysPerObject: 500, keysPerRequest: 100 } as const;

export const MSG_EXTRA_DATA_KEY_CLASH = 'A key/value pair with this key already exists';
export const MSG_NO_UPLOAD_FORMAT_OPTION = 'Upload Format should instead be set in Ingest Formats';
export const MSG_EXTRA_DATA_TOO_MANY = `An object can hold at most ${EXTRA_DATA_LIMITS.keysPerObject} extra data entries`;
export const MSG_EXTRA_DATA_DELETED = (keys: string[]) => `Data ${keys.join(', ')} successfully deleted.`;
export const MSG_EXTRA_DATA_SAVED = (key: string) => `Data "${key}" successfully saved.`;
export const MSG_EXTRA_DATA_ADDED = (key: string, value: string) => `"${key}: ${value}" successfully added.`;
export const MSG_NO_EXTRA_DATA = (context: string) => `No data present on this ${context}`;
/** The add form's toggle: 'Add a {key}/{value} pair', then 'Add another …' once there is one. */
export const extraDataAddToggleText = (hasEntries: boolean, keyLabel = 'key', valueLabel = 'value') =>
  `Add ${hasEntries ? 'another' : 'a'} ${keyLabel}/${valueLabel} pair`;

export const extraDataStoredKey = (dataKey: string) => `${EXTRA_DATA_KEY_PREFIX}${dataKey.trim()}`;
/** The data key shown for a stored key, or undefined when the key is one of the product's own options. */
export const extraDataKeyOf = (storedKey: string) =>
  storedKey.startsWith(EXTRA_DATA_KEY_PREFIX) ? storedKey.slice(EXTRA_DATA_KEY_PREFIX.length) : undefined;

export const isUploadFormatOptionKey = (dataKey: string) =>
  dataKey.trim().toLowerCase() === UPLOAD_FORMAT_OPTION_KEY;

export type ExtraDataKeyError = { code: 'required' | 'keyclash' | 'noUploadFormatOption'; message: string };

/** spec1 §5: the checks of a new key, against the data keys the object already has. */
export const checkNewExtraDataKey = (
  dataKey: string,
  existingDataKeys: readonly string[],
  scope: ExtraDataScope,
): ExtraDataKeyError | undefined => {
  const key = dataKey.trim();
  if (!key) return { code: 'required', message: MSG_FIELD_REQUIRED };
  if (scope === 'accounts' && isUploadFormatOptionKey(key))
    return { code: 'noUploadFormatOption', message: MSG_NO_UPLOAD_FORMAT_OPTION };
  if (existingDataKeys.some((existing) => existing.trim() === key))
    return { code: 'keyclash', message: MSG_EXTRA_DATA_KEY_CLASH };
  return undefined;
};

/** The keys of an update that are the same once trimmed; empty when none are. */
export const clashingExtraDataKeys = (keys: readonly string[]) => {
  const seen = new Set<string>();
  return keys.filter((key) => {
    const trimmed = key.trim();
    if (seen.has(trimmed)) return true;
    seen.add(trimmed);
    return false;
  });
};

/** The whole object: stored key to value. */
export const extraDataSchema = z.record(z.string(), z.string());
export type ExtraData = z.infer<typeof extraDataSchema>;

/**
 * POST: stored key to new value; null deletes the key. Keys and values are trimmed (the service trims the
 * keys, so that two keys equal once trimmed clash instead of one silently replacing the other).
 */
export const extraDataUpdateSchema = z
  .record(
    z
      .string()
      .max(EXTRA_DATA_LIMITS.key + EXTRA_DATA_KEY_PREFIX.length + 100)
      .refine((key) => key.trim().length > 0, { error: MSG_FIELD_REQUIRED })
      .refine((key) => key.trim().length <= EXTRA_DATA_LIMITS.key + EXTRA_DATA_KEY_PREFIX.length, {
        error: `At most ${EXTRA_DATA_LIMITS.key} characters`,
      }),
    z
      .string()
      .trim()
      .min(1, { error: MSG_FIELD_REQUIRED })
      .max(EXTRA_DATA_LIMITS.value, { error: `At most ${EXTRA_DATA_LIMITS.value} characters` })
      .nullable(),
  )
  .refine((update) => Object.keys(update).length > 0, { error: MSG_NOTHING_TO_CHANGE })
  .refine((update) => Object.keys(update).length <= EXTRA_DATA_LIMITS.keysPerRequest, {
    error: `At most ${EXTRA_DATA_LIMITS.keysPerRequest} keys at once`,
  });
export type ExtraDataUpdate = z.infer<typeof extraDataUpdateSchema>;
