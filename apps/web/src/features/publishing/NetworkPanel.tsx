import { Alert, Button, Group, List, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { checkNetwork, type PublishModule, type PublishNetwork } from '@media/contract';
import { useState } from 'react';

type EditorProps = {
  network: PublishNetwork;
  modules: readonly PublishModule[];
  onChange: (network: PublishNetwork, info: { stratified: boolean; problems: string[] }) => void;
  readOnly?: boolean;
  onSelectNode?: (nodeLocalId: number | null) => void;
};

// PLACEHOLDER until helper H's NetworkEditor (features/publishing/network/NetworkEditor.tsx) is committed:
// same props; lists the nodes and adds a node. Replace `Editor` with NetworkEditor then.
const Editor = ({ network, modules, onChange, readOnly, onSelectNode }: EditorProps) => {
  const [moduleId, setModuleId] = useState<string | null>(null);
  const add = () => {
    if (!moduleId) return;
    const nodeLocalId = Math.max(-1, ...network.nodes.map((n) => n.nodeLocalId)) + 1;
    const next = { ...network, nodes: [...network.nodes, { nodeLocalId, moduleId, options: {} }] };
    onChange(next, { stratified: false, problems: checkNetwork(next, modules) });
  };
  return (
    <Stack gap="xs">
      {network.nodes.map((node) => (
        <Button key={node.nodeLocalId} variant="light" onClick={() => onSelectNode?.(node.nodeLocalId)}>
          {node.nodeLocalId}: {modules.find((m) => m.id === node.moduleId)?.name ?? node.moduleId}
        </Button>
      ))}
      {!readOnly && (
        <Group>
          <Select
            aria-label="Module to add"
            data={modules.map((m) => ({ value: m.id, label: m.name }))}
            value={moduleId}
            onChange={setModuleId}
          />
          <Button onClick={add}>Add node</Button>
        </Group>
      )}
    </Stack>
  );
};

type Props = {
  name: string;
  network: PublishNetwork;
  modules: readonly PublishModule[];
  problems: readonly string[];
  stratified: boolean;
  readOnly?: boolean;
  onChange: (network: PublishNetwork, info: { stratified: boolean; problems: string[] }) => void;
  onSelectNode: (nodeLocalId: number | null) => void;
  onClose: () => void;
};

/** Network mode of one button (spec3 §2, §4): the graph editor, its problems, and whether it is still simple. */
export const NetworkPanel = (props: Props) => (
  <Paper withBorder p="sm" data-testid="network-mode" aria-label={`Network mode of ${props.name}`}>
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={4}>Network mode</Title>
        <Button size="xs" variant="default" onClick={props.onClose}>
          Close network mode
        </Button>
      </Group>
      {!props.stratified && (
        <Alert color="yellow" p="xs" data-testid="not-stratified">
          This network is no longer stratified: edit it here, in network mode.
        </Alert>
      )}
      <div style={{ minHeight: 360 }}>
        <Editor
          network={props.network}
          modules={props.modules}
          readOnly={props.readOnly}
          onChange={props.onChange}
          onSelectNode={props.onSelectNode}
        />
      </div>
      {props.problems.length > 0 && (
        <Alert color="red" p="xs" title="Problems" data-testid="network-problems">
          <List size="sm">
            {props.problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Text size="xs" c="dimmed">
        Click a node to edit its options below; drag from one node to another to connect them.
      </Text>
    </Stack>
  </Paper>
);
