import { Autocomplete, Badge, Button, CloseButton, Group, Stack, TextInput } from '@mantine/core';
import { NODE_SEARCH_CLAUSES_MAX } from '@media/contract';
import { type FormEvent, useState } from 'react';
import { DatePickerInput } from '../../ui/DateTimeInputs.tsx';
import {
  addClause,
  clauseLabel,
  isSearching,
  NO_SEARCH,
  SEARCH_KEY_LABELS,
  type SearchState,
} from './search-clauses.ts';

const KEY_CHOICES = Object.values(SEARCH_KEY_LABELS);

/**
 * spec3 §2 / §4 search: clauses (Name, Any text or a metadata key typed, and a value) become chips, and a
 * created-date range; Reset clears both.
 */
export const SearchBar = ({
  search,
  onChange,
}: {
  search: SearchState;
  onChange: (next: SearchState) => void;
}) => {
  const [key, setKey] = useState<string>(SEARCH_KEY_LABELS.name);
  const [value, setValue] = useState('');
  const full = search.clauses.length >= NODE_SEARCH_CLAUSES_MAX;

  const add = (event: FormEvent) => {
    event.preventDefault();
    const clauses = addClause(search.clauses, key, value);
    if (clauses !== search.clauses) onChange({ ...search, clauses });
    setValue('');
  };

  return (
    <Stack gap="xs" component="section" aria-label="Search">
      <Group gap="xs" align="flex-end" wrap="wrap">
        <form noValidate onSubmit={add}>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <Autocomplete
              label="Search in"
              placeholder="Name, Any text or a metadata key"
              data={KEY_CHOICES}
              value={key}
              onChange={setKey}
              w={150}
              size="xs"
            />
            <TextInput
              label="Search value"
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              w={170}
              size="xs"
            />
            <Button type="submit" size="xs" disabled={full || !key.trim() || !value.trim()}>
              Add clause
            </Button>
          </Group>
        </form>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <DatePickerInput
            label="Created from"
            size="xs"
            w={130}
            value={search.createdFrom}
            maxDate={search.createdTo ?? undefined}
            onChange={(createdFrom) => onChange({ ...search, createdFrom })}
          />
          <DatePickerInput
            label="Created to"
            size="xs"
            w={130}
            value={search.createdTo}
            minDate={search.createdFrom ?? undefined}
            onChange={(createdTo) => onChange({ ...search, createdTo })}
          />
          <Button
            size="xs"
            variant="default"
            disabled={!isSearching(search)}
            onClick={() => {
              setValue('');
              onChange(NO_SEARCH);
            }}
          >
            Reset
          </Button>
        </Group>
      </Group>
      {search.clauses.length > 0 && (
        <Group gap={6} aria-label="Search clauses" role="list">
          {search.clauses.map((clause) => (
            <Badge
              key={`${clause.key}\u0000${clause.value}`}
              role="listitem"
              variant="light"
              size="lg"
              tt="none"
              fw={500}
              pr={4}
              rightSection={
                <CloseButton
                  size="xs"
                  aria-label={`Remove ${clauseLabel(clause)}`}
                  onClick={() =>
                    onChange({ ...search, clauses: search.clauses.filter((other) => other !== clause) })
                  }
                />
              }
            >
              {clauseLabel(clause)}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
};
