import { Alert, Checkbox, Group, Loader, Radio, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import {
  CHANNELS,
  errorWhile,
  KEY_SHORTCUT_LEVEL_LABELS,
  type KeyShortcutContext,
  type KeyShortcutLevel,
  type KeyShortcutSet,
  keyShortcutAffectedLevels,
  keyShortcutParentChoices,
  MSG_KEY_SHORTCUTS_SAVED,
} from '@media/contract';
import { useEffect, useState } from 'react';
import {
  type KeyShortcutChange,
  keyShortcutsKey,
  useKeyShortcutAccessLevel,
  useKeyShortcuts,
  useSaveKeyShortcuts,
} from '../../api/account-config.ts';
import { useLiveRefresh } from '../../api/live.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { notify } from '../../ui/notify.tsx';
import { SaveChangesButtons } from '../../ui/SaveChangesButtons.tsx';
import { markDirty } from '../../ui/unsaved-changes.tsx';

/**
 * spec1 §2 Key shortcuts: delete, level, name, parent, visible, default per set. Changes and removals
 * are collected, confirmed, then sent together (spec1 §4).
 */
export const KeyShortcutsSection = ({ context }: { context: KeyShortcutContext }) => {
  const sets = useKeyShortcuts(context);
  useLiveRefresh(CHANNELS.keyShortcuts, keyShortcutsKey(context));
  const access = useKeyShortcutAccessLevel(context);
  const save = useSaveKeyShortcuts(context);
  const [updates, setUpdates] = useState<ReadonlyMap<number, KeyShortcutChange>>(new Map());
  const [removals, setRemovals] = useState<ReadonlySet<number>>(new Set());
  const [newDefault, setNewDefault] = useState<number>();
  const dirty = updates.size > 0 || removals.size > 0 || newDefault !== undefined;
  const dirtyId = `key-shortcuts-${JSON.stringify(context)}`;
  useEffect(() => {
    markDirty(dirtyId, dirty);
    return () => markDirty(dirtyId, false);
  }, [dirty, dirtyId]);

  if (sets.isPending || access.isPending) return <Loader size="sm" aria-label="Loading key shortcuts" />;
  if (sets.isError || access.isError)
    return (
      <Alert color="red" role="alert">
        {errorWhile(sets.error ?? access.error, 'loading the key shortcuts')}
      </Alert>
    );
  const mayChange = new Set(access.data.levels);
  const rows = sets.data.results.map((set) => ({ ...set, ...updates.get(set.id) }));
  const defaultId = newDefault ?? rows.find((row) => row.isDefault)?.id;
  if (rows.length === 0)
    return (
      <Text c="dimmed" size="sm">
        No key shortcut sets: they are made in the editor.
      </Text>
    );

  const change = (set: KeyShortcutSet, patch: Partial<KeyShortcutChange>) => {
    const base = updates.get(set.id) ?? {
      id: set.id,
      name: set.name,
      parentId: set.parentId,
      visible: set.visible,
      level: set.level,
    };
    setUpdates(new Map(updates).set(set.id, { ...base, ...patch }));
  };
  const discard = () => {
    setUpdates(new Map());
    setRemovals(new Set());
    setNewDefault(undefined);
  };
  const submit = async () => {
    const changed = [...updates.values()].filter((u) => !removals.has(u.id));
    const wideLevels = new Set(
      changed.flatMap((u) => {
        const before = sets.data.results.find((s) => s.id === u.id)?.level;
        return [u.level, ...(before ? [before] : [])].filter((level) => level !== 'user');
      }),
    );
    const affected = [...wideLevels].flatMap((level) => keyShortcutAffectedLevels(level as KeyShortcutLevel));
    const warning = affected.length
      ? `This also changes the shortcuts of: ${[...new Set(affected)].map((l) => KEY_SHORTCUT_LEVEL_LABELS[l]).join(', ')}.`
      : '';
    const confirmed = await confirmDialog({
      title: 'Save key shortcuts',
      message: `Save ${changed.length} change(s) and delete ${removals.size} set(s)? ${warning}`.trim(),
      confirmLabel: 'Save',
      cancelLabel: 'Cancel',
    });
    if (!confirmed) return;
    try {
      await save.mutateAsync({ updates: changed, removals: [...removals], newDefault });
      notify({ type: 'success', text: MSG_KEY_SHORTCUTS_SAVED });
      discard();
    } catch (error) {
      showAlert({
        type: 'danger',
        text: errorWhile(error, 'saving the key shortcuts'),
        source: 'key-shortcuts',
      });
    }
  };

  return (
    <Stack gap="sm">
      <Table verticalSpacing={4} aria-label="Key shortcuts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={60}>Delete</Table.Th>
            <Table.Th>Level</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Parent</Table.Th>
            <Table.Th w={70}>Visible</Table.Th>
            <Table.Th w={70}>Default</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const original = sets.data.results.find((s) => s.id === row.id) as KeyShortcutSet;
            const editable = mayChange.has(original.level) && !removals.has(row.id);
            const isDefault = row.id === defaultId;
            return (
              <Table.Tr key={row.id} opacity={removals.has(row.id) ? 0.5 : 1}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Delete ${original.name}`}
                    disabled={!mayChange.has(original.level) || isDefault}
                    checked={removals.has(row.id)}
                    onChange={(event) => {
                      const next = new Set(removals);
                      if (event.currentTarget.checked) next.add(row.id);
                      else next.delete(row.id);
                      setRemovals(next);
                    }}
                  />
                </Table.Td>
                <Table.Td>
                  <Select
                    size="xs"
                    aria-label={`Level of ${original.name}`}
                    disabled={!editable}
                    allowDeselect={false}
                    data={access.data.levels
                      .concat(mayChange.has(row.level) ? [] : [row.level])
                      .map((level) => ({ value: level, label: KEY_SHORTCUT_LEVEL_LABELS[level] }))}
                    value={row.level}
                    onChange={(level) => level && change(original, { level: level as KeyShortcutLevel })}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    size="xs"
                    aria-label={`Name of ${original.name}`}
                    disabled={!editable}
                    value={row.name}
                    error={row.name.trim() ? undefined : 'This field cannot be empty'}
                    onChange={(event) => change(original, { name: event.currentTarget.value })}
                  />
                </Table.Td>
                <Table.Td>
                  <Select
                    size="xs"
                    aria-label={`Parent of ${original.name}`}
                    disabled={!editable}
                    clearable
                    placeholder="None"
                    data={keyShortcutParentChoices(rows, row.id).map((s) => ({
                      value: String(s.id),
                      label: s.name,
                    }))}
                    value={row.parentId === null ? null : String(row.parentId)}
                    onChange={(value) =>
                      change(original, { parentId: value === null ? null : Number(value) })
                    }
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={`${original.name} visible`}
                    disabled={!editable || isDefault}
                    checked={row.visible}
                    onChange={(event) => change(original, { visible: event.currentTarget.checked })}
                  />
                </Table.Td>
                <Table.Td>
                  <Radio
                    aria-label={`${original.name} default`}
                    name={`key-shortcut-default-${dirtyId}`}
                    disabled={
                      !row.visible || removals.has(row.id) || !mayChange.has(access.data.defaultLevel)
                    }
                    checked={isDefault}
                    onChange={() => setNewDefault(row.id)}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {rows.some((row) => mayChange.has(row.level)) && (
        <Group justify="flex-end">
          <SaveChangesButtons
            dirty={dirty}
            valid={rows.every((row) => row.name.trim() !== '')}
            saving={save.isPending}
            onSave={submit}
            onDiscard={discard}
          />
        </Group>
      )}
    </Stack>
  );
};
