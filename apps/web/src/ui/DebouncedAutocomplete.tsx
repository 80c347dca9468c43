import { Autocomplete, type AutocompleteProps, Loader } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';

/** spec3 §9: the autocomplete asks for suggestions 300 ms after typing stops. */
export const AUTOCOMPLETE_DEBOUNCE_MS = 300;

type Props = Omit<AutocompleteProps, 'data' | 'value' | 'onChange'> & {
  value: string;
  onChange: (value: string) => void;
  /** A stable key for the suggestions' cache. */
  queryKey: readonly unknown[];
  suggestions: (text: string) => Promise<string[]>;
  /** Suggestions start at this many characters (user search: 2). */
  minChars?: number;
};

export const DebouncedAutocomplete = ({
  value,
  onChange,
  queryKey,
  suggestions,
  minChars = 0,
  ...rest
}: Props) => {
  const [debounced] = useDebouncedValue(value, AUTOCOMPLETE_DEBOUNCE_MS);
  const [focused, setFocused] = useState(false);
  const enabled = focused && debounced.trim().length >= minChars;
  const query = useQuery({
    queryKey: [...queryKey, debounced],
    queryFn: () => suggestions(debounced),
    enabled,
    placeholderData: keepPreviousData,
  });
  return (
    <Autocomplete
      {...rest}
      value={value}
      onChange={onChange}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      data={enabled ? (query.data ?? []) : []}
      rightSection={query.isFetching ? <Loader size="xs" /> : undefined}
      error={query.error ? query.error.message : rest.error}
    />
  );
};
