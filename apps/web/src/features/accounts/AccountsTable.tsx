import { Alert, Anchor, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  type AccountListItem,
  accountCreateSchema,
  formatDate,
  mediaManagerLink,
  type PageWindow,
} from '@media/contract';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  ACCOUNT_LIST_QUERY_KEY,
  type AccountSort,
  useAccountNameReservation,
  useAccounts,
  useCreateAccount,
} from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { ALL_ROWS, useOrgList } from '../../api/organisation.ts';
import { ActiveBadge } from '../../ui/ActiveBadge.tsx';
import { showAlert } from '../../ui/alerts.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';
import { accountSettingsPath } from './account-paths.ts';

const SEARCH_DEBOUNCE_MS = 300;
const DEFAULT_SORT: AccountSort = { id: 'name', desc: false };

/** The name rules of a new account, taken from the reserve variant of the create body. */
const accountNameSchema = accountCreateSchema.options[2].shape.name;

const nameError = (name: string) => accountNameSchema.safeParse(name).error?.issues[0]?.message;

/** The server's word on a refused name: its field message when it gives one, else the whole message. */
const refusal = (error: unknown) =>
  error instanceof ApiError
    ? { field: error.fields?.name, message: error.fields?.name ? undefined : error.message }
    : { field: undefined, message: error instanceof Error ? error.message : String(error) };

/**
 * The accounts a user can see, paged, searchable and sortable by the server; each name opens the account's
 * settings. With `siteId` only that site's accounts (the site page). Site managers and above also create
 * and clone accounts here.
 */
export const AccountsTable = ({ siteId, canCreate }: { siteId?: number; canCreate: boolean }) => {
  const [window, setWindow] = useState<PageWindow>({ startIndex: 0, pageSize: 20 });
  const [sort, setSort] = useState<AccountSort>(DEFAULT_SORT);
  const [search, setSearch] = useState('');
  const [searchText] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const accounts = useAccounts(window, sort, { searchText, siteId });
  useLiveRefresh(accounts.data?.channel, ACCOUNT_LIST_QUERY_KEY);
  const [cloning, setCloning] = useState<AccountListItem | null>(null);
  const [creating, setCreating] = useState(false);

  // Stable columns: the table rebuilds its column model only when what they show changes.
  const columns = useMemo<DataTableColumn<AccountListItem>[]>(
    () => [
      {
        id: 'name',
        header: 'Account',
        sortable: true,
        width: 220,
        cell: (a) => (
          <Anchor component={Link} to={accountSettingsPath(a.name)} size="sm">
            {a.name}
          </Anchor>
        ),
      },
      {
        id: 'productionName',
        header: 'Production Name',
        sortable: true,
        width: 220,
        cell: (a) => a.productionName,
      },
      ...(siteId === undefined
        ? [
            {
              id: 'siteName',
              header: 'Site',
              sortable: true,
              width: 160,
              cell: (a: AccountListItem) => (
                <Anchor component={Link} to={`/site/${a.siteId}/`} size="sm">
                  {a.siteName}
                </Anchor>
              ),
            },
          ]
        : []),
      {
        id: 'createdAt',
        header: 'Created',
        sortable: true,
        optional: true,
        width: 130,
        cell: (a) => formatDate(new Date(a.createdAt)),
      },
      {
        id: 'status',
        header: 'Status',
        width: 110,
        cell: (a) => <ActiveBadge disabled={a.disabled} />,
      },
      {
        id: 'actions',
        header: 'Actions',
        width: canCreate ? 230 : 100,
        cell: (a: AccountListItem) => (
          <Group gap="xs" wrap="nowrap">
            <Button component={Link} to={mediaManagerLink(a.name)} size="compact-xs" variant="light">
              Media
            </Button>
            {canCreate && (
              <Button size="compact-xs" variant="light" onClick={() => setCloning(a)}>
                Clone account
              </Button>
            )}
          </Group>
        ),
      },
    ],
    [siteId, canCreate],
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <TextInput
          label="Search accounts"
          placeholder="Name or production name"
          w={320}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setWindow((current) => ({ ...current, startIndex: 0 }));
          }}
        />
        {canCreate && <Button onClick={() => setCreating(true)}>New account</Button>}
      </Group>
      <DataTable
        entities="accounts"
        rows={accounts.data?.results ?? []}
        total={accounts.data?.total ?? 0}
        getRowId={(a) => String(a.id)}
        columns={columns}
        loading={accounts.isFetching}
        error={accounts.error?.message}
        emptyText={searchText ? `No accounts match "${searchText}"` : 'No accounts yet'}
        sort={sort}
        onSortChange={(next) =>
          setSort(next ? { id: next.id as AccountSort['id'], desc: next.desc } : DEFAULT_SORT)
        }
        window={window}
        onWindowChange={setWindow}
        resizable
      />
      <Modal opened={cloning !== null} onClose={() => setCloning(null)} title="Clone account" centered>
        {/* Keyed by the source so every opening starts afresh; closing releases a held name. */}
        {cloning && <CloneAccountForm key={cloning.id} source={cloning} onDone={() => setCloning(null)} />}
      </Modal>
      <Modal opened={creating} onClose={() => setCreating(false)} title="New account" centered>
        {creating && <NewAccountForm siteId={siteId} onDone={() => setCreating(false)} />}
      </Modal>
    </Stack>
  );
};

/**
 * spec1 §1: the new name is reserved first, so nobody takes it while the user confirms; confirming clones
 * (which frees the reservation), cancelling gives the name back.
 */
const CloneAccountForm = ({ source, onDone }: { source: AccountListItem; onDone: () => void }) => {
  const [name, setName] = useState(`${source.name}-copy`);
  const [error, setError] = useState<{ field?: string; message?: string }>({});
  const [reserved, setReserved] = useState<string | null>(null);
  const { reserve, release } = useAccountNameReservation();
  const clone = useCreateAccount();
  // The name this dialog holds, read when it goes away.
  const held = useRef<string | null>(null);
  const releaseRef = useRef(release.mutate);
  releaseRef.current = release.mutate;

  // Leaving with a held name (Escape, the close button, another page) gives it back.
  useEffect(
    () => () => {
      if (held.current) releaseRef.current({ name: held.current, cloneFrom: source.id });
    },
    [source.id],
  );

  const reserveName = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const invalid = nameError(trimmed);
    if (invalid) return setError({ field: invalid });
    setError({});
    try {
      await reserve.mutateAsync({ name: trimmed, cloneFrom: source.id });
      held.current = trimmed;
      setReserved(trimmed);
    } catch (failure) {
      setError(refusal(failure));
    }
  };

  const cancel = async () => {
    if (reserved) {
      held.current = null;
      try {
        await release.mutateAsync({ name: reserved, cloneFrom: source.id });
      } catch (failure) {
        showAlert({
          type: 'warning',
          text: `The name "${reserved}" could not be released: ${failure instanceof Error ? failure.message : 'unknown'}`,
          source: 'accounts',
        });
      }
    }
    onDone();
  };

  const confirm = async () => {
    if (!reserved) return;
    try {
      await clone.mutateAsync({ name: reserved, cloneFrom: source.id });
      held.current = null;
      showAlert({
        type: 'success',
        text: `Account "${reserved}" cloned from "${source.name}"`,
        source: 'accounts',
      });
      onDone();
    } catch (failure) {
      setError(refusal(failure));
    }
  };

  if (reserved) {
    return (
      <Stack gap="sm">
        <Text size="sm">
          The name <b>{reserved}</b> is reserved for you. Clone <b>{source.name}</b> (settings, columns and
          workflows; not its users or media) into a new account with this name?
        </Text>
        {(error.field || error.message) && (
          <Alert color="red" role="alert">
            {error.field ?? error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={cancel} loading={release.isPending}>
            Cancel
          </Button>
          <Button onClick={confirm} loading={clone.isPending} data-autofocus>
            Clone
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <form noValidate onSubmit={reserveName}>
      <Stack gap="sm">
        <Text size="sm">
          Cloning <b>{source.name}</b>. Choose the name of the new account; it is held for you while you
          confirm.
        </Text>
        <TextInput
          label="New account name"
          required
          data-autofocus
          value={name}
          error={error.field}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        {error.message && (
          <Alert color="red" role="alert">
            {error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={reserve.isPending} disabled={!name.trim()}>
            Reserve name
          </Button>
        </Group>
      </Stack>
    </form>
  );
};

/** `{name, siteId}`: on a site page the site is that one; elsewhere the user picks one of their sites. */
const NewAccountForm = ({ siteId, onDone }: { siteId?: number; onDone: () => void }) => {
  const [name, setName] = useState('');
  const [site, setSite] = useState<number | null>(siteId ?? null);
  const [error, setError] = useState<{ field?: string; message?: string }>({});
  const sites = useOrgList('sites', ALL_ROWS);
  const create = useCreateAccount();
  const navigate = useNavigate();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const invalid = nameError(trimmed);
    if (invalid) return setError({ field: invalid });
    if (site === null) return setError({ message: 'Choose the site of the account' });
    setError({});
    try {
      const account = await create.mutateAsync({ name: trimmed, siteId: site });
      showAlert({ type: 'success', text: `Account "${account.name}" created`, source: 'accounts' });
      onDone();
      await navigate(accountSettingsPath(account.name));
    } catch (failure) {
      setError(refusal(failure));
    }
  };

  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="sm">
        <TextInput
          label="Account name"
          description="Letters, digits, dots, dashes and underscores; it becomes part of the account's address"
          required
          data-autofocus
          value={name}
          error={error.field}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        {siteId === undefined && (
          <Select<number>
            label="Site"
            required
            searchable
            placeholder={sites.isPending ? 'Loading sites…' : 'Choose a site'}
            data={(sites.data?.results ?? []).map((s) => ({ value: s.id, label: s.name }))}
            value={site}
            onChange={setSite}
            error={
              sites.error ? `There has been an error loading the sites: ${sites.error.message}` : undefined
            }
          />
        )}
        {error.message && (
          <Alert color="red" role="alert">
            {error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create
          </Button>
        </Group>
      </Stack>
    </form>
  );
};
