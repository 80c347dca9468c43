import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { AUDIT_TARGET_TYPES, type AuditTargetType } from '@media/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { searchAccounts } from '../../api/audit.ts';
import { DatePickerInput } from '../../ui/DateTimeInputs.tsx';
import { AUTOCOMPLETE_DEBOUNCE_MS } from '../../ui/DebouncedAutocomplete.tsx';
import { type ActivityFilter, periodProblem } from './activity-filter.ts';

/** An account the user sees, searched by name; the one chosen stays listed (by id when not found again). */
const AccountPicker = (props: { value: number | undefined; onChange: (id: number | undefined) => void }) => {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), AUTOCOMPLETE_DEBOUNCE_MS);
  const found = useQuery({
    queryKey: ['auditLog', 'accounts', debounced],
    queryFn: () => searchAccounts(debounced),
  });
  const options = (found.data ?? []).map((account) => ({ value: String(account.id), label: account.name }));
  if (props.value !== undefined && !options.some((option) => option.value === String(props.value)))
    options.unshift({ value: String(props.value), label: `Account #${props.value}` });
  return (
    <Select
      label="In account"
      placeholder="Any account"
      searchable
      clearable
      data={options}
      filter={({ options: shown }) => shown}
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={found.isFetching ? 'Searching…' : 'No account matches'}
      value={props.value === undefined ? null : String(props.value)}
      onChange={(id) => props.onChange(id ? Number(id) : undefined)}
    />
  );
};

const text = (value: string) => value.trim() || undefined;

/**
 * The Activity page's filters: typed freely, applied together (Apply, or Enter), cleared at once. A period
 * whose last day comes before its first is said under the field and not applied.
 */
export const ActivityFilters = (props: {
  value: ActivityFilter;
  onApply: (filter: ActivityFilter) => void;
}) => {
  const [draft, setDraft] = useState<ActivityFilter>(props.value);
  // The page's address may change the filters too (a row's "Only this actor").
  useEffect(() => setDraft(props.value), [props.value]);
  const set = (change: Partial<ActivityFilter>) => setDraft((current) => ({ ...current, ...change }));
  const problem = periodProblem(draft);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (!problem) props.onApply(draft);
  };
  return (
    <form onSubmit={apply} aria-label="Activity filters" noValidate>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        <TextInput
          label="Actor"
          placeholder="User name or edge server"
          value={draft.actor ?? ''}
          onChange={(event) => set({ actor: text(event.currentTarget.value) })}
        />
        <TextInput
          label="Operation"
          placeholder="e.g. postUsersById"
          value={draft.operation ?? ''}
          onChange={(event) => set({ operation: text(event.currentTarget.value) })}
        />
        <Select
          label="Target type"
          placeholder="Any target"
          clearable
          searchable
          data={[...AUDIT_TARGET_TYPES]}
          value={draft.targetType ?? null}
          onChange={(type) =>
            set({
              targetType: (type as AuditTargetType | null) ?? undefined,
              ...(type ? {} : { targetId: undefined }),
            })
          }
        />
        <TextInput
          label="Target id"
          placeholder={draft.targetType ? `The ${draft.targetType}'s id` : 'Choose a target type first'}
          disabled={!draft.targetType}
          value={draft.targetId ?? ''}
          onChange={(event) => set({ targetId: text(event.currentTarget.value) })}
        />
        <AccountPicker value={draft.accountId} onChange={(accountId) => set({ accountId })} />
        <DatePickerInput
          label="First day"
          placeholder="YYYY-MM-DD"
          value={draft.from ?? null}
          onChange={(day) => set({ from: day ?? undefined })}
        />
        <DatePickerInput
          label="Last day"
          placeholder="YYYY-MM-DD"
          value={draft.to ?? null}
          onChange={(day) => set({ to: day ?? undefined })}
          error={problem}
        />
        <Group align="flex-end" gap="xs">
          <Button type="submit" disabled={problem !== undefined}>
            Apply
          </Button>
          <Button
            variant="default"
            onClick={() => {
              setDraft({});
              props.onApply({});
            }}
          >
            Clear
          </Button>
        </Group>
      </SimpleGrid>
    </form>
  );
};
