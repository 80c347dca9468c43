import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { MSG_USER_SEARCH_FAILED, USER_SEARCH_MIN_CHARS, type User } from '@media/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { searchUsers } from '../../api/account-access.ts';
import { AUTOCOMPLETE_DEBOUNCE_MS } from '../../ui/DebouncedAutocomplete.tsx';

const userLabel = (user: Pick<User, 'username' | 'fullname'>) =>
  user.fullname ? `${user.username} — ${user.fullname}` : user.username;

/**
 * Administrators: one user out of all users, searched by user name, full name or e-mail from
 * USER_SEARCH_MIN_CHARS characters (the all-user search of spec1 §6).
 */
export const UserPicker = (props: {
  value: User | undefined;
  onChange: (user: User | undefined) => void;
}) => {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), AUTOCOMPLETE_DEBOUNCE_MS);
  // Once chosen, the search box shows the user's label: that is not a new search.
  const searching =
    debounced.length >= USER_SEARCH_MIN_CHARS && (!props.value || debounced !== userLabel(props.value));
  const found = useQuery({
    queryKey: ['users', 'search', true, undefined, debounced],
    queryFn: () => searchUsers(debounced, { admin: true }),
    enabled: searching,
  });
  const users = [...(props.value ? [props.value] : [])];
  for (const user of searching ? (found.data ?? []) : [])
    if (!users.some((u) => u.id === user.id)) users.push(user);

  return (
    <Select
      label="User"
      placeholder="User name, full name or e-mail"
      searchable
      clearable
      data={users.map((user) => ({ value: String(user.id), label: userLabel(user) }))}
      filter={({ options }) => options}
      nothingFoundMessage={
        search.trim().length < USER_SEARCH_MIN_CHARS
          ? `Type at least ${USER_SEARCH_MIN_CHARS} characters`
          : found.isFetching
            ? 'Searching…'
            : 'No user matches'
      }
      searchValue={search}
      onSearchChange={setSearch}
      error={searching && found.isError ? MSG_USER_SEARCH_FAILED : undefined}
      value={props.value ? String(props.value.id) : null}
      onChange={(id) => props.onChange(users.find((user) => String(user.id) === id))}
      maw={420}
    />
  );
};
