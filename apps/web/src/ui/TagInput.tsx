import { TagsInput, type TagsInputProps } from '@mantine/core';
import { addTags, TAG_INPUT_MAX_TAGS } from '@media/contract';
import { useEffect, useRef, useState } from 'react';
import { createTagSuggester, type TagSuggestionSource } from './tag-suggester.ts';

export type { TagSuggestionSource } from './tag-suggester.ts';

type Props = Omit<TagsInputProps, 'value' | 'onChange' | 'data' | 'searchValue' | 'onSearchChange'> & {
  value: string[];
  onChange: (tags: string[]) => void;
  /** Suggestions for what is typed: a list, or a search; only matches not already chosen are shown. */
  suggestions?: TagSuggestionSource;
};

const NO_SUGGESTIONS: readonly string[] = [];

/**
 * Tags added on Enter or comma; spaces become dashes; unique case-insensitively; no maximum; suggestions
 * 100 ms after typing stops, matches only (spec3 §5, §9).
 */
export const TagInput = ({ value, onChange, suggestions = NO_SUGGESTIONS, ...rest }: Props) => {
  const [search, setSearch] = useState('');
  const [shown, setShown] = useState<string[]>([]);
  const source = useRef(suggestions);
  source.current = suggestions;
  const suggester = useRef<ReturnType<typeof createTagSuggester> | null>(null);
  useEffect(() => {
    const next = createTagSuggester(() => source.current, setShown);
    suggester.current = next;
    return () => next.stop();
  }, []);
  return (
    <TagsInput
      {...rest}
      value={value}
      splitChars={[',']}
      acceptValueOnBlur
      maxTags={TAG_INPUT_MAX_TAGS}
      data={shown}
      // The suggestions are already the matches of what was typed.
      filter={({ options }) => options}
      searchValue={search}
      onSearchChange={(text) => {
        setSearch(text);
        suggester.current?.typed(text, value);
      }}
      onChange={(next) => onChange(next.reduce<string[]>((tags, tag) => addTags(tags, tag), []))}
    />
  );
};
