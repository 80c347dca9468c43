/** spec1 §3: the bookkeeping states of an object being edited and saved. */
export const SAVE_STATES = ['clean', 'new', 'creating', 'saving', 'error', 'uninitialised'] as const;
export type SaveState = (typeof SAVE_STATES)[number];

/** spec1 §9: how often an object is compared with its saved copy. */
export const DIRTY_CHECK_MS = 100;

/** new → creating; clean (or a failed save) → saving; a save already running stays as it is. */
export const stateWhileSaving = (state: SaveState): SaveState => {
  switch (state) {
    case 'new':
      return 'creating';
    case 'clean':
    case 'error':
    case 'uninitialised':
      return 'saving';
    default:
      return state;
  }
};

export const isSaving = (state: SaveState) => state === 'creating' || state === 'saving';

/** Compares an object with its saved copy by value, as the 100 ms dirty check does. */
export const isDirty = (current: unknown, saved: unknown) => stableJson(current) !== stableJson(saved);

const stableJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
