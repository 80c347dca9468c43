import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type Me, type PageWindow, resellerCreateSchema } from '@media/contract';
import { type FormEvent, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useMe } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { useLiveRefresh } from '../../api/live.ts';
import {
  ALL_ROWS,
  type OrgEntity,
  type OrgKind,
  orgQueryKey,
  useCreateOrg,
  useOrgList,
  useUpdateOrg,
} from '../../api/organisation.ts';
import { ActiveBadge } from '../../ui/ActiveBadge.tsx';
import { showAlert } from '../../ui/alerts.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';

const SEARCH_DEBOUNCE_MS = 300;
const nameSchema = resellerCreateSchema.shape.name;

type Level<K extends OrgKind> = {
  title: string;
  singular: string;
  description: string;
  /** The level this one is created under, and where a row names it. */
  parent?: {
    kind: OrgKind;
    label: string;
    id: (row: OrgEntity[K]) => number;
    name: (row: OrgEntity[K]) => string;
  };
  count: { header: string; value: (row: OrgEntity[K]) => number };
  /** Who may create at this level (spec1 §6 hierarchy); the server checks the exact scope. */
  mayCreate: (rights: Me['rights']) => boolean;
};

const LEVELS: { [K in OrgKind]: Level<K> } = {
  resellers: {
    title: 'Resellers',
    singular: 'reseller',
    description: 'The top of the hierarchy: each reseller holds site groups and bills accounts.',
    count: { header: 'Site groups', value: (r) => r.siteGroupCount },
    mayCreate: (rights) => rights.admin.length > 0,
  },
  siteGroups: {
    title: 'Site groups',
    singular: 'site group',
    description: 'Groups of sites under one reseller.',
    parent: { kind: 'resellers', label: 'Reseller', id: (g) => g.resellerId, name: (g) => g.resellerName },
    count: { header: 'Sites', value: (g) => g.siteCount },
    mayCreate: (rights) => rights.admin.length > 0 || rights.resellers.length > 0,
  },
  sites: {
    title: 'Sites',
    singular: 'site',
    description: 'Sites hold accounts, their users and their edge servers.',
    parent: {
      kind: 'siteGroups',
      label: 'Site group',
      id: (s) => s.siteGroupId,
      name: (s) => s.siteGroupName,
    },
    count: { header: 'Accounts', value: (s) => s.accountCount },
    mayCreate: (rights) =>
      rights.admin.length > 0 || rights.resellers.length > 0 || rights.siteGroups.length > 0,
  },
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `/admin/organisation`: resellers, site groups and sites, each paged, with create and edit dialogs. */
export const OrganisationPage = () => {
  const me = useMe();
  const rights = me.data?.rights;
  return (
    <Stack>
      <div>
        <Title order={2}>Organisation</Title>
        <Text c="dimmed" size="sm">
          Resellers hold site groups, site groups hold sites, and sites hold accounts.
        </Text>
      </div>
      {(['resellers', 'siteGroups', 'sites'] as const).map((kind) => (
        <OrgSection key={kind} kind={kind} mayCreate={!!rights && LEVELS[kind].mayCreate(rights)} />
      ))}
    </Stack>
  );
};

type Editing<K extends OrgKind> = { row?: OrgEntity[K] } | null;

const OrgSection = <K extends OrgKind>({ kind, mayCreate }: { kind: K; mayCreate: boolean }) => {
  const level: Level<K> = LEVELS[kind];
  const [window, setWindow] = useState<PageWindow>({ startIndex: 0, pageSize: 10 });
  const [search, setSearch] = useState('');
  const [searchText] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useOrgList(kind, window, { searchText });
  useLiveRefresh(list.data?.channel, orgQueryKey(kind));
  const [editing, setEditing] = useState<Editing<K>>(null);

  const columns = useMemo<DataTableColumn<OrgEntity[K]>[]>(
    () => [
      {
        id: 'name',
        header: 'Name',
        width: 240,
        cell: (row) =>
          kind === 'sites' ? (
            <Anchor component={Link} to={`/site/${row.id}/`} size="sm">
              {row.name}
            </Anchor>
          ) : (
            row.name
          ),
      },
      ...(level.parent
        ? [{ id: 'parent', header: level.parent.label, width: 200, cell: level.parent.name }]
        : []),
      { id: 'count', header: level.count.header, width: 110, cell: level.count.value },
      {
        id: 'status',
        header: 'Status',
        width: 110,
        cell: (row) => <ActiveBadge disabled={row.disabled} />,
      },
      {
        id: 'actions',
        header: 'Actions',
        width: 100,
        cell: (row) => (
          <Button
            size="compact-xs"
            variant="light"
            aria-label={`Edit ${level.singular} ${row.name}`}
            onClick={() => setEditing({ row })}
          >
            Edit
          </Button>
        ),
      },
    ],
    [kind, level],
  );

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={`${kind}-title`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={3} id={`${kind}-title`}>
              {level.title}
            </Title>
            <Text c="dimmed" size="sm">
              {level.description}
            </Text>
          </div>
          <Group gap="sm" align="flex-end">
            <TextInput
              aria-label={`Search ${level.title.toLowerCase()}`}
              placeholder={`Search ${level.title.toLowerCase()}`}
              w={220}
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                setWindow((current) => ({ ...current, startIndex: 0 }));
              }}
            />
            {mayCreate && <Button onClick={() => setEditing({})}>New {level.singular}</Button>}
          </Group>
        </Group>
        <DataTable
          entities={level.title.toLowerCase()}
          rows={list.data?.results ?? []}
          total={list.data?.total ?? 0}
          getRowId={(row) => String(row.id)}
          columns={columns}
          loading={list.isFetching}
          error={list.error?.message}
          emptyText={
            searchText
              ? `No ${level.title.toLowerCase()} match "${searchText}"`
              : `No ${level.title.toLowerCase()} yet`
          }
          window={window}
          onWindowChange={setWindow}
          height={380}
        />
      </Stack>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.row ? `Edit ${level.singular}` : `New ${level.singular}`}
        centered
      >
        {editing && (
          <OrgForm
            key={editing.row?.id ?? 'new'}
            kind={kind}
            level={level}
            row={editing.row}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>
    </Paper>
  );
};

/** Create (name, parent) or edit (name, parent, disabled) one row; disabling asks first. */
const OrgForm = <K extends OrgKind>(props: {
  kind: K;
  level: Level<K>;
  row?: OrgEntity[K];
  onDone: () => void;
}) => {
  const { kind, level, row } = props;
  const [name, setName] = useState(row?.name ?? '');
  const [parentId, setParentId] = useState<number | null>(row && level.parent ? level.parent.id(row) : null);
  const [disabled, setDisabled] = useState(row?.disabled ?? false);
  const [error, setError] = useState<{ name?: string; parent?: string; message?: string }>({});
  const parents = useOrgList(level.parent?.kind ?? 'resellers', ALL_ROWS, {}, { enabled: !!level.parent });
  const create = useCreateOrg(kind);
  const update = useUpdateOrg(kind);

  const parentOptions = (parents.data?.results ?? []).map((p) => ({ value: p.id, label: p.name }));
  if (row && level.parent && !parentOptions.some((p) => p.value === parentId))
    parentOptions.unshift({ value: level.parent.id(row), label: level.parent.name(row) });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = nameSchema.safeParse(name);
    if (!checked.success) return setError({ name: checked.error.issues[0]?.message });
    if (level.parent && parentId === null) return setError({ parent: 'This field is required' });
    if (row && disabled && !row.disabled) {
      const confirmed = await confirmDialog({
        title: `Disable ${level.singular}`,
        message: `Disable the ${level.singular} "${row.name}"? What it holds stays, but is no longer in use.`,
        confirmLabel: 'Disable',
        danger: true,
      });
      if (!confirmed) return;
    }
    setError({});
    const parent = parentId ?? undefined;
    try {
      if (row) {
        await update.mutateAsync({ id: row.id, change: { name: checked.data, parentId: parent, disabled } });
        showAlert({
          type: 'success',
          text: `${capitalised(level.singular)} "${checked.data}" saved`,
          source: kind,
        });
      } else {
        await create.mutateAsync({ name: checked.data, parentId: parent });
        showAlert({
          type: 'success',
          text: `${capitalised(level.singular)} "${checked.data}" created`,
          source: kind,
        });
      }
      props.onDone();
    } catch (failure) {
      const fields = failure instanceof ApiError ? failure.fields : undefined;
      setError(
        fields?.name
          ? { name: fields.name }
          : { message: failure instanceof Error ? failure.message : String(failure) },
      );
    }
  };

  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="sm">
        <TextInput
          label="Name"
          required
          data-autofocus
          value={name}
          error={error.name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        {level.parent && (
          <Select<number>
            label={level.parent.label}
            required
            searchable
            allowDeselect={false}
            placeholder={parents.isPending ? 'Loading…' : `Choose a ${level.parent.label.toLowerCase()}`}
            data={parentOptions}
            value={parentId}
            onChange={setParentId}
            error={
              error.parent ??
              (parents.error
                ? `There has been an error loading the ${level.parent.label.toLowerCase()}s: ${parents.error.message}`
                : undefined)
            }
          />
        )}
        {row && (
          <Switch
            label="Disabled"
            description={`A disabled ${level.singular} keeps its data but is no longer in use`}
            checked={disabled}
            onChange={(e) => setDisabled(e.currentTarget.checked)}
          />
        )}
        {error.message && (
          <Alert color="red" role="alert">
            {error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {row ? 'Save' : 'Create'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};
