import { Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { displayName, type MediaNode, NODE_MESSAGES, NODE_METADATA_VALUE_MAX } from '@media/contract';
import { type FormEvent, useState } from 'react';
import { useNodeMutations } from '../../api/nodes.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { ClickToEdit } from '../../ui/ClickToEdit.tsx';
import { SubtitlesPanel } from './SubtitlesPanel.tsx';

/**
 * spec3 §2 Editing a metadata field of a node: each value is click-to-edit (sent only when changed), and
 * a new key can be added; read-only without the right to log here.
 */
export const MetadataPanel = ({ node }: { node: MediaNode }) => {
  const { setField } = useNodeMutations();
  const editable = node.access.canLog;

  const save = async (key: string, value: string) => {
    try {
      await setField.mutateAsync({ path: node.path, key, value, accountId: node.accountId });
      showAlert({ type: 'success', text: NODE_MESSAGES.fieldSaved(key), source: 'nodes' });
    } catch (error) {
      showAlert({
        type: 'danger',
        text: error instanceof Error ? error.message : String(error),
        source: 'nodes',
      });
      throw error;
    }
  };

  const entries = Object.entries(node.metadata);
  const derived = Object.entries(node.artefactMetadata);
  return (
    <Paper withBorder p="sm" component="section" aria-label="Metadata">
      <Stack gap="xs">
        <Title order={4}>Metadata of {displayName(node.name)}</Title>
        {entries.length === 0 && derived.length === 0 && (
          <Text size="sm" c="dimmed">
            No metadata
          </Text>
        )}
        {(entries.length > 0 || derived.length > 0) && (
          <Table withRowBorders={false} verticalSpacing={2}>
            <Table.Tbody>
              {entries.map(([key, value]) => (
                <Table.Tr key={key}>
                  <Table.Td w="35%">
                    <Text size="sm" fw={500}>
                      {key}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {editable ? (
                      <ClickToEdit
                        label={key}
                        value={value}
                        maxLength={NODE_METADATA_VALUE_MAX}
                        onSubmit={(next) => save(key, next)}
                      />
                    ) : (
                      <Text size="sm">{value}</Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
              {derived.map(([key, value]) => (
                <Table.Tr key={`artefact-${key}`}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {key}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{value}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {editable && <AddField key={node.path} taken={node.metadata} onAdd={save} />}
        {node.mediaId !== null && <SubtitlesPanel key={node.mediaId} node={node} mediaId={node.mediaId} />}
      </Stack>
    </Paper>
  );
};

const AddField = ({
  taken,
  onAdd,
}: {
  taken: Record<string, string>;
  onAdd: (key: string, value: string) => Promise<void>;
}) => {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [saving, setSaving] = useState(false);
  const clash = key.trim() in taken ? 'This field exists: edit its value above' : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!key.trim() || clash) return;
    setSaving(true);
    try {
      await onAdd(key.trim(), value);
      setKey('');
      setValue('');
    } catch {
      // The alert has said why; the typed field stays for another try.
    } finally {
      setSaving(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          size="xs"
          label="Field"
          value={key}
          error={clash}
          maxLength={100}
          onChange={(event) => setKey(event.currentTarget.value)}
        />
        <TextInput
          size="xs"
          label="Value"
          value={value}
          maxLength={NODE_METADATA_VALUE_MAX}
          onChange={(event) => setValue(event.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button type="submit" size="xs" mt={22} loading={saving} disabled={!key.trim() || Boolean(clash)}>
          Add field
        </Button>
      </Group>
    </form>
  );
};
