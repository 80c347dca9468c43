import { TAG_INPUT_DEBOUNCE_MS, tagSuggestions } from '@media/contract';

/** Where a tag input's suggestions come from: a fixed list, or a search that answers for what is typed. */
export type TagSuggestionSource = readonly string[] | ((typed: string) => Promise<readonly string[]>);

/** The matches of what is typed (spec3 §9): a search's answer is filtered too, so only matches show. */
export const resolveTagSuggestions = async (
  source: TagSuggestionSource,
  typed: string,
  chosen: readonly string[],
): Promise<string[]> => {
  if (typed.trim() === '') return [];
  const candidates = typeof source === 'function' ? await source(typed) : source;
  return tagSuggestions(candidates, typed, chosen);
};

/**
 * Asks for suggestions 100 ms after typing stops (spec3 §9); an answer to an older text, or one that comes
 * after stop(), is dropped. A failed search suggests nothing: the user can still type any tag.
 */
export const createTagSuggester = (
  /** Read at each ask, so a page may pass a new list or search on every render. */
  source: () => TagSuggestionSource,
  onSuggestions: (suggestions: string[]) => void,
  debounceMs = TAG_INPUT_DEBOUNCE_MS,
) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    asked += 1;
  };
  return {
    typed: (text: string, chosen: readonly string[]) => {
      cancel();
      if (text.trim() === '') {
        onSuggestions([]);
        return;
      }
      const ask = asked;
      timer = setTimeout(() => {
        timer = undefined;
        resolveTagSuggestions(source(), text, chosen).then(
          (suggestions) => {
            if (ask === asked) onSuggestions(suggestions);
          },
          () => {
            if (ask === asked) onSuggestions([]);
          },
        );
      }, debounceMs);
    },
    stop: cancel,
  };
};
