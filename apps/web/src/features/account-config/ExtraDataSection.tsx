import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import {
  CHANNELS,
  checkNewExtraDataKey,
  type ExtraDataScope,
  errorWhile,
  extraDataAddToggleText,
  extraDataKeyOf,
  extraDataStoredKey,
  MSG_EXTRA_DATA_ADDED,
  MSG_EXTRA_DATA_DELETED,
  MSG_EXTRA_DATA_SAVED,
  MSG_FIELD_REQUIRED,
  MSG_NO_EXTRA_DATA,
} from '@media/contract';
import { type FormEvent, useMemo, useState } from 'react';
import { extraDataKey, useExtraData, useUpdateExtraData } from '../../api/account-config.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { notify } from '../../ui/notify.tsx';

type Entry = { dataKey: string; value: string };
type SortBy = { column: 'dataKey' | 'value'; desc: boolean };

const CONTEXT_NAME: Record<ExtraDataScope, string> = { accounts: 'account', sites: 'site', users: 'user' };
/** Where the noUploadFormatOption message links to on an account page. */
export const INGEST_FORMATS_SECTION_ID = 'ingest-formats';

/** spec1 §2 Extra data table of an account, site or user: add, edit one row at a time, delete checked rows. */
export const ExtraDataSection = ({
  scope,
  id,
  canEdit,
}: {
  scope: ExtraDataScope;
  id: number;
  canEdit: boolean;
}) => {
  const data = useExtraData(scope, id);
  useLiveRefresh(CHANNELS.extraData(scope, id), extraDataKey(scope, id));
  const update = useUpdateExtraData(scope, id);
  const [sortBy, setSortBy] = useState<SortBy>({ column: 'dataKey', desc: false });
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<{ dataKey: string; value: string; error?: string }>();
  const [adding, setAdding] = useState(false);

  const entries = useMemo(() => {
    const list: Entry[] = Object.entries(data.data ?? {}).flatMap(([stored, value]) => {
      const dataKey = extraDataKeyOf(stored);
      return dataKey === undefined ? [] : [{ dataKey, value }];
    });
    const direction = sortBy.desc ? -1 : 1;
    return list.sort(
      (a, b) =>
        direction * a[sortBy.column].localeCompare(b[sortBy.column], undefined, { sensitivity: 'base' }),
    );
  }, [data.data, sortBy]);

  if (data.isPending) return <Loader size="sm" aria-label="Loading extra data" />;
  if (data.isError)
    return (
      <Alert color="red" role="alert">
        {errorWhile(data.error, 'loading the extra data')}
      </Alert>
    );

  const failed = (error: unknown) =>
    showAlert({ type: 'danger', text: errorWhile(error, 'submitting the data'), source: 'extra-data' });

  const deleteChecked = async () => {
    const keys = entries.filter((e) => checked.has(e.dataKey)).map((e) => e.dataKey);
    const confirmed = await confirmDialog({
      title: 'Delete Extra Data',
      message: `Delete ${keys.join(', ')}?`,
      confirmLabel: 'Delete',
      cancelLabel: 'Cancel',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await update.mutateAsync(Object.fromEntries(keys.map((key) => [extraDataStoredKey(key), null])));
      setChecked(new Set());
      notify({ type: 'success', text: MSG_EXTRA_DATA_DELETED(keys) });
    } catch (error) {
      failed(error);
    }
  };

  const saveEdit = async () => {
    if (!editing) return;
    const value = editing.value.trim();
    if (!value) return setEditing({ ...editing, error: MSG_FIELD_REQUIRED });
    try {
      await update.mutateAsync({ [extraDataStoredKey(editing.dataKey)]: value });
      setEditing(undefined);
      notify({ type: 'success', text: MSG_EXTRA_DATA_SAVED(editing.dataKey) });
    } catch (error) {
      failed(error);
    }
  };

  const sortHeader = (column: SortBy['column'], label: string) => {
    const active = sortBy.column === column;
    return (
      <Table.Th aria-sort={active ? (sortBy.desc ? 'descending' : 'ascending') : 'none'}>
        <UnstyledButton
          fw={600}
          fz="sm"
          onClick={() => setSortBy({ column, desc: active ? !sortBy.desc : false })}
        >
          {label} {active ? (sortBy.desc ? '▼' : '▲') : ''}
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <Stack gap="sm">
      <Table verticalSpacing={4} aria-label="Extra data">
        <Table.Thead>
          <Table.Tr>
            {canEdit && (
              <Table.Th w={90}>
                <Button
                  size="compact-xs"
                  color="red"
                  variant="light"
                  disabled={checked.size === 0 || update.isPending}
                  onClick={deleteChecked}
                >
                  Delete
                </Button>
              </Table.Th>
            )}
            {sortHeader('dataKey', 'Key')}
            {sortHeader('value', 'Value')}
            {canEdit && <Table.Th w={150} aria-label="Edit" />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={canEdit ? 4 : 2}>
                <Text c="dimmed" size="sm">
                  {MSG_NO_EXTRA_DATA(CONTEXT_NAME[scope])}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {entries.map((entry) => {
            const isEditing = editing?.dataKey === entry.dataKey;
            const visible = shown.has(entry.dataKey);
            return (
              <Table.Tr key={entry.dataKey}>
                {canEdit && (
                  <Table.Td>
                    <Checkbox
                      aria-label={`Remove ${entry.dataKey}`}
                      checked={checked.has(entry.dataKey)}
                      onChange={(event) => {
                        const next = new Set(checked);
                        if (event.currentTarget.checked) next.add(entry.dataKey);
                        else next.delete(entry.dataKey);
                        setChecked(next);
                      }}
                    />
                  </Table.Td>
                )}
                <Table.Td>{entry.dataKey}</Table.Td>
                <Table.Td>
                  {isEditing ? (
                    <TextInput
                      size="xs"
                      aria-label={`Value of ${entry.dataKey}`}
                      value={editing.value}
                      error={editing.error}
                      autoFocus
                      onChange={(event) =>
                        setEditing({ dataKey: entry.dataKey, value: event.currentTarget.value })
                      }
                      onKeyDown={(event) => {
                        if (event.key === 'Enter') void saveEdit();
                        if (event.key === 'Escape') setEditing(undefined);
                      }}
                    />
                  ) : (
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        size="sm"
                        aria-label={`${visible ? 'Hide' : 'Show'} the value of ${entry.dataKey}`}
                        aria-pressed={visible}
                        onClick={() => {
                          const next = new Set(shown);
                          if (visible) next.delete(entry.dataKey);
                          else next.add(entry.dataKey);
                          setShown(next);
                        }}
                      >
                        {visible ? '◉' : '○'}
                      </ActionIcon>
                      <Text size="sm" ff={visible ? undefined : 'monospace'}>
                        {visible ? entry.value : '••••••'}
                      </Text>
                    </Group>
                  )}
                </Table.Td>
                {canEdit && (
                  <Table.Td>
                    {isEditing ? (
                      <Group gap={4}>
                        <Button size="compact-xs" loading={update.isPending} onClick={saveEdit}>
                          Save
                        </Button>
                        <Button size="compact-xs" variant="default" onClick={() => setEditing(undefined)}>
                          Cancel
                        </Button>
                      </Group>
                    ) : (
                      <Button
                        size="compact-xs"
                        variant="default"
                        aria-label={`Edit ${entry.dataKey}`}
                        disabled={editing !== undefined}
                        onClick={() => setEditing({ dataKey: entry.dataKey, value: entry.value })}
                      >
                        Edit
                      </Button>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {canEdit &&
        (adding ? (
          <AddExtraDataForm
            scope={scope}
            existing={entries.map((e) => e.dataKey)}
            saving={update.isPending}
            onCancel={() => setAdding(false)}
            onAdd={async (entry) => {
              try {
                await update.mutateAsync({ [extraDataStoredKey(entry.dataKey)]: entry.value });
                setAdding(false);
                notify({ type: 'success', text: MSG_EXTRA_DATA_ADDED(entry.dataKey, entry.value) });
              } catch (error) {
                failed(error);
              }
            }}
          />
        ) : (
          <Anchor
            component="button"
            type="button"
            size="sm"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => setAdding(true)}
          >
            {extraDataAddToggleText(entries.length > 0)}
          </Anchor>
        ))}
    </Stack>
  );
};

const AddExtraDataForm = (props: {
  scope: ExtraDataScope;
  existing: string[];
  saving: boolean;
  onAdd: (entry: Entry) => Promise<void>;
  onCancel: () => void;
}) => {
  const [dataKey, setDataKey] = useState('');
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<{ key?: string; code?: string; value?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const keyError = checkNewExtraDataKey(dataKey, props.existing, props.scope);
    const valueError = value.trim() ? undefined : MSG_FIELD_REQUIRED;
    setErrors({ key: keyError?.message, code: keyError?.code, value: valueError });
    if (!keyError && !valueError) void props.onAdd({ dataKey: dataKey.trim(), value: value.trim() });
  };
  return (
    <form noValidate onSubmit={submit} aria-label="Add extra data">
      <Group align="flex-start" gap="sm">
        <TextInput
          size="xs"
          label="Key"
          value={dataKey}
          autoFocus
          onChange={(event) => setDataKey(event.currentTarget.value)}
          error={
            errors.code === 'noUploadFormatOption' ? (
              <Anchor href={`#${INGEST_FORMATS_SECTION_ID}`} size="xs" c="red">
                {errors.key}
              </Anchor>
            ) : (
              errors.key
            )
          }
        />
        <TextInput
          size="xs"
          label="Value"
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          error={errors.value}
        />
        <Group gap={4} mt={22}>
          <Button size="xs" type="submit" loading={props.saving}>
            Add
          </Button>
          <Button size="xs" variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
        </Group>
      </Group>
    </form>
  );
};
