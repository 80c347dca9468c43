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
