/** spec1 §5: the default, and smallest, max video resolution. */
export const DEFAULT_MAX_VIDEO = '640x360';

const RESOLUTION = /^(\d+)x(\d+)$/;

/** Width and height of a 'WxH' value, or undefined when it does not match. */
export const parseResolution = (value: string | null | undefined) => {
  const match = RESOLUTION.exec((value ?? '').trim());
  if (!match) return undefined;
  return { width: Number(match[1]), height: Number(match[2]) };
};

/** spec1 §5: the largest pixel area among the accounts' editor.maxVideo values; at least 640x360. */
export const maxVideoResolution = (values: readonly (string | null | undefined)[]): string => {
  let best = DEFAULT_MAX_VIDEO;
  let bestArea = 640 * 360;
  for (const value of values) {
    const parsed = parseResolution(value);
    if (!parsed) continue;
    const area = parsed.width * parsed.height;
    if (area > bestArea) {
      best = `${parsed.width}x${parsed.height}`;
      bestArea = area;
    }
  }
  return best;
};

/** spec1 §9: No limit (null), 'No users - lock access' (0), '1 user', '2 users' … '50 users'. */
export const CONCURRENT_USER_LIMIT_MAX = 50;
export const concurrentUserLimitOptions = (): { value: number | null; label: string }[] => [
  { value: null, label: 'No limit' },
  { value: 0, label: 'No users - lock access' },
  { value: 1, label: '1 user' },
  ...Array.from({ length: CONCURRENT_USER_LIMIT_MAX - 1 }, (_, i) => ({
    value: i + 2,
    label: `${i + 2} users`,
  })),
];

/** Whether one more user may enter an account that already has `activeUsers` distinct users in it. */
export const mayEnterAccount = (limit: number | null, activeUsers: number, alreadyInside: boolean) =>
  limit === null || alreadyInside || activeUsers < limit;
