import { Button, Group, Select } from '@mantine/core';
import {
  type Connection,
  moduleDisplayName,
  type PublishModule,
  type PublishModuleType,
  type PublishNetwork,
} from '@media/contract';
import { useState } from 'react';

const GROUP_NAMES: Record<PublishModuleType, string> = {
  source: 'Sources',
  process: 'Processing',
  destination: 'Destinations',
  post: 'After publishing',
};

type Props = {
  network: PublishNetwork;
  modules: readonly PublishModule[];
  /** Node ids the graph shows (a hidden source cannot be linked by hand). */
  shownIds: readonly number[];
  deleteLabel: string | null;
  onAdd: (moduleId: string) => void;
  onConnect: (pair: Connection) => void;
  onDelete: () => void;
};

/**
 * The editor's controls outside the graph: a palette of selectable modules, a keyboard way to connect two
 * nodes (the same rule as dragging between handles), and the delete of the selection.
 */
export const NetworkToolbar = ({
  network,
  modules,
  shownIds,
  deleteLabel,
  onAdd,
  onConnect,
  onDelete,
}: Props) => {
  const [moduleId, setModuleId] = useState<string | null>(null);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const palette = (Object.keys(GROUP_NAMES) as PublishModuleType[])
    .map((type) => ({
      group: GROUP_NAMES[type],
      items: modules
        .filter((module) => module.type === type && module.selectable)
        .map((module) => ({ value: module.id, label: module.name })),
    }))
    .filter((group) => group.items.length > 0);
  const nodeChoices = network.nodes
    .filter((node) => shownIds.includes(node.nodeLocalId))
    .map((node) => ({
      value: String(node.nodeLocalId),
      label: `${moduleDisplayName(node.moduleId, modules)} (${node.nodeLocalId})`,
    }));
  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      <Select
        size="xs"
        label="Module"
        placeholder="Choose a module"
        data={palette}
        allowDeselect={false}
        value={moduleId}
        onChange={setModuleId}
        w={170}
      />
      <Button
        size="xs"
        variant="light"
        disabled={moduleId === null}
        onClick={() => {
          if (moduleId !== null) onAdd(moduleId);
        }}
      >
        Add node
      </Button>
      <Select
        size="xs"
        label="From"
        data={nodeChoices}
        allowDeselect={false}
        value={from}
        onChange={setFrom}
        w={150}
      />
      <Select
        size="xs"
        label="To"
        data={nodeChoices}
        allowDeselect={false}
        value={to}
        onChange={setTo}
        w={150}
      />
      <Button
        size="xs"
        variant="light"
        disabled={from === null || to === null}
        onClick={() => {
          if (from !== null && to !== null) onConnect([Number(from), Number(to)]);
        }}
      >
        Connect
      </Button>
      <Button size="xs" variant="light" color="red" disabled={deleteLabel === null} onClick={onDelete}>
        {deleteLabel ?? 'Delete'}
      </Button>
    </Group>
  );
};
