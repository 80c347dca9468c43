/** A tag as the tag input stores it: trimmed, inner spaces as dashes. */
export const normaliseTag = (text: string) => text.trim().replace(/\s+/g, '-');

/** spec3: tags are added on Enter or comma, spaces become dashes, unique case-insensitively. */
export const addTags = (existing: readonly string[], input: string): string[] => {
  const seen = new Set(existing.map((tag) => tag.toLowerCase()));
  const result = [...existing];
  for (const part of input.split(',')) {
    const tag = normaliseTag(part);
    if (tag === '' || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    result.push(tag);
  }
  return result;
};

/** spec3 §9: the tag input's suggestion debounce. */
export const TAG_INPUT_DEBOUNCE_MS = 100;

/** spec3 §9: the tag input has effectively no maximum number of tags. */
export const TAG_INPUT_MAX_TAGS = Number.POSITIVE_INFINITY;

/**
 * spec3 §9: the tag input's autocomplete shows matches only: the suggestions that contain what is typed
 * (ignoring case and with spaces as dashes, as a tag is stored), less the tags already chosen. Nothing is
 * suggested before something is typed.
 */
export const tagSuggestions = (
  candidates: readonly string[],
  typed: string,
  chosen: readonly string[],
): string[] => {
  const needle = normaliseTag(typed).toLowerCase();
  if (needle === '') return [];
  const taken = new Set(chosen.map((tag) => tag.toLowerCase()));
  const result: string[] = [];
  for (const candidate of candidates) {
    const tag = normaliseTag(candidate);
    const key = tag.toLowerCase();
    if (tag === '' || taken.has(key) || !key.includes(needle)) continue;
    taken.add(key);
    result.push(tag);
  }
  return result;
};

/** The suggestions a form item offers its tag input: `options.suggestions`, a list of texts. */
export const tagSuggestionsOfOptions = (options: Record<string, unknown> | undefined): string[] => {
  const list = options?.suggestions;
  return Array.isArray(list) ? list.filter((one): one is string => typeof one === 'string') : [];
};
