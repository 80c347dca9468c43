import {
  ActionIcon,
  Alert,
  Autocomplete,
  Button,
  Checkbox,
  Group,
  Loader,
  Radio,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import {
  type AnyColumn,
  type AnyColumnSet,
  CHANNELS,
  type ColumnKind,
  columnsInheritLabel,
  columnsProblem,
  DEFAULT_FILE_COLUMNS,
  DEFAULT_LOGGING_COLUMNS,
  errorWhile,
  type FileColumn,
  formatPresets,
  type LoggingColumn,
  MSG_COLUMNS_SAVED,
  MSG_EMPTY_COLUMN_LIST,
  MSG_FIELD_REQUIRED,
  newColumn,
  parsePresets,
} from '@media/contract';
import { useEffect, useState } from 'react';
import { type ColumnOwner, columnsKey, useColumns, useSaveColumns } from '../../api/account-config.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { notify } from '../../ui/notify.tsx';
import { SaveChangesButtons } from '../../ui/SaveChangesButtons.tsx';
import { markDirty } from '../../ui/unsaved-changes.tsx';

/** spec1 §2 Metadata columns page: file and logging columns of a site or an account. */
export const MetadataColumnsSection = ({ owner, canEdit }: { owner: ColumnOwner; canEdit: boolean }) => (
  <Tabs defaultValue="file" keepMounted={false}>
    <Tabs.List>
      <Tabs.Tab value="file">File columns</Tabs.Tab>
      <Tabs.Tab value="logging">Logging columns</Tabs.Tab>
    </Tabs.List>
    <Tabs.Panel value="file" pt="sm">
      <ColumnsEditor owner={owner} kind="file" canEdit={canEdit} />
    </Tabs.Panel>
    <Tabs.Panel value="logging" pt="sm">
      <ColumnsEditor owner={owner} kind="logging" canEdit={canEdit} />
    </Tabs.Panel>
  </Tabs>
);

/** Rows carry a key of their own, so deleting one keeps the inputs of the others in place. */
type Row = AnyColumn & { rowKey: number; presetsText?: string };
let nextRowKey = 1;
const toRows = (columns: readonly AnyColumn[]): Row[] =>
  columns.map((column) => ({
    ...column,
    rowKey: nextRowKey++,
    ...('presets' in column ? { presetsText: formatPresets(column.presets) } : {}),
  }));
const fromRows = (rows: readonly Row[]): AnyColumn[] =>
  rows.map(({ rowKey: _rowKey, presetsText, ...column }) =>
    presetsText === undefined ? column : { ...column, presets: parsePresets(presetsText) },
  );

const KNOWN_KEYS: Record<ColumnKind, string[]> = {
  file: DEFAULT_FILE_COLUMNS.map((c) => c.internalName),
  logging: DEFAULT_LOGGING_COLUMNS.map((c) => c.internalName),
};

const ColumnsEditor = ({
  owner,
  kind,
  canEdit,
}: {
  owner: ColumnOwner;
  kind: ColumnKind;
  canEdit: boolean;
}) => {
  const data = useColumns(owner, kind);
  useLiveRefresh(CHANNELS.columns(owner.scope, owner.id), columnsKey(owner, kind));
  const save = useSaveColumns(owner, kind);
  const [inherit, setInherit] = useState(true);
  const [rows, setRows] = useState<Row[]>([]);
  const [dirty, setDirty] = useState(false);
  const [tried, setTried] = useState(false);

  useEffect(() => {
    if (!data.data || dirty) return;
    setInherit(data.data.autoInherit);
    setRows(toRows(data.data.columns));
  }, [data.data, dirty]);
  useEffect(() => {
    const id = `columns-${owner.scope}-${owner.id}-${kind}`;
    markDirty(id, dirty);
    return () => markDirty(id, false);
  }, [dirty, owner, kind]);

  if (data.isPending) return <Loader size="sm" aria-label={`Loading ${kind} columns`} />;
  if (data.isError)
    return (
      <Alert color="red" role="alert">
        {errorWhile(data.error, 'loading metadata')}
      </Alert>
    );
  const { defaults } = data.data;
  const context = owner.scope === 'sites' ? 'site' : 'account';
  const editing = canEdit && !inherit;

  const edit = (next: Row[]) => {
    setRows(next);
    setDirty(true);
  };
  const change = (rowKey: number, patch: Partial<Row>) =>
    edit(rows.map((row) => (row.rowKey === rowKey ? ({ ...row, ...patch } as Row) : row)));
  const choose = (value: string) => {
    const nextInherit = value === 'inherit';
    setInherit(nextInherit);
    // Custom starts from what was shown: the inherited list, unless the owner had its own.
    if (!nextInherit && data.data.autoInherit) setRows(toRows(defaults));
    if (nextInherit) setRows(toRows(defaults));
    setDirty(true);
  };
  const discard = () => {
    setDirty(false);
    setTried(false);
    setInherit(data.data.autoInherit);
    setRows(toRows(data.data.columns));
  };
  const submit = async () => {
    setTried(true);
    const columns = fromRows(rows);
    const problem = inherit ? undefined : columnsProblem(columns);
    if (problem) {
      showAlert({ type: 'warning', text: problem, source: 'metadata-columns' });
      return;
    }
    try {
      await save.mutateAsync({ columns, autoInherit: inherit } as AnyColumnSet);
      notify({ type: 'success', text: MSG_COLUMNS_SAVED });
      setDirty(false);
      setTried(false);
    } catch (error) {
      showAlert({ type: 'danger', text: errorWhile(error, 'saving columns'), source: 'metadata-columns' });
    }
  };

  return (
    <Stack gap="sm">
      <Radio.Group
        value={inherit ? 'inherit' : 'custom'}
        onChange={choose}
        aria-label={`${kind === 'file' ? 'File' : 'Logging'} columns source`}
      >
        <Group>
          <Radio value="inherit" label={columnsInheritLabel(context)} disabled={!canEdit} />
          <Radio value="custom" label="Custom" disabled={!canEdit} />
        </Group>
      </Radio.Group>
      {rows.length === 0 ? (
        <Text c="red" size="sm" role="alert">
          {MSG_EMPTY_COLUMN_LIST}
        </Text>
      ) : (
        <Table verticalSpacing={4} aria-label={`${kind === 'file' ? 'File' : 'Logging'} columns`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Key</Table.Th>
              <Table.Th>Display name</Table.Th>
              <Table.Th w={70}>Hidden</Table.Th>
              {kind === 'file' ? (
                <>
                  <Table.Th w={90}>Searchable</Table.Th>
                  <Table.Th w={80}>Editable</Table.Th>
                </>
              ) : (
                <>
                  <Table.Th w={60}>Title</Table.Th>
                  <Table.Th>Presets</Table.Th>
                </>
              )}
              {editing && <Table.Th w={40} aria-label="Delete" />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, index) => {
              const label = row.displayName || `column ${index + 1}`;
              return (
                <Table.Tr key={row.rowKey}>
                  <Table.Td>
                    <Autocomplete
                      size="xs"
                      aria-label={`Key of ${label}`}
                      data={KNOWN_KEYS[kind].filter(
                        (key) => !rows.some((r) => r !== row && r.internalName === key),
                      )}
                      value={row.internalName}
                      disabled={!editing}
                      error={tried && !row.internalName.trim() ? MSG_FIELD_REQUIRED : undefined}
                      onChange={(internalName) => change(row.rowKey, { internalName })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      size="xs"
                      aria-label={`Display name of ${label}`}
                      value={row.displayName}
                      disabled={!editing}
                      error={editing && !row.displayName.trim() ? MSG_FIELD_REQUIRED : undefined}
                      onChange={(event) => change(row.rowKey, { displayName: event.currentTarget.value })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Checkbox
                      aria-label={`${label} hidden`}
                      checked={row.hidden}
                      disabled={!editing}
                      onChange={(event) => change(row.rowKey, { hidden: event.currentTarget.checked })}
                    />
                  </Table.Td>
                  {kind === 'file' ? (
                    <>
                      <Table.Td>
                        <Checkbox
                          aria-label={`${label} searchable`}
                          checked={(row as FileColumn).searchable}
                          disabled={!editing}
                          onChange={(event) =>
                            change(row.rowKey, { searchable: event.currentTarget.checked })
                          }
                        />
                      </Table.Td>
                      <Table.Td>
                        <Checkbox
                          aria-label={`${label} editable`}
                          checked={(row as FileColumn).editable}
                          disabled={!editing}
                          onChange={(event) => change(row.rowKey, { editable: event.currentTarget.checked })}
                        />
                      </Table.Td>
                    </>
                  ) : (
                    <>
                      <Table.Td>
                        <Checkbox
                          aria-label={`${label} title`}
                          checked={(row as LoggingColumn).title}
                          disabled={!editing}
                          onChange={(event) => change(row.rowKey, { title: event.currentTarget.checked })}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextInput
                          size="xs"
                          aria-label={`Presets of ${label}`}
                          placeholder="Comma-separated"
                          value={row.presetsText ?? ''}
                          disabled={!editing}
                          onChange={(event) => change(row.rowKey, { presetsText: event.currentTarget.value })}
                        />
                      </Table.Td>
                    </>
                  )}
                  {editing && (
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Delete ${label}`}
                        onClick={() => edit(rows.filter((r) => r.rowKey !== row.rowKey))}
                      >
                        ×
                      </ActionIcon>
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {canEdit && (
        <Group justify="space-between">
          {editing ? (
            <Button variant="light" onClick={() => edit([...rows, ...toRows([newColumn(kind)])])}>
              Add column
            </Button>
          ) : (
            <span />
          )}
          {dirty && <SaveChangesButtons dirty saving={save.isPending} onSave={submit} onDiscard={discard} />}
        </Group>
      )}
    </Stack>
  );
};
