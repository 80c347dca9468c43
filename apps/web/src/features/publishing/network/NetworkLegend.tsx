import { Group, Text } from '@mantine/core';
import { TYPE_COLOURS } from './ModuleNode.tsx';

const LEGEND = [
  ['source', 'Source'],
  ['process', 'Processing'],
  ['destination', 'Destination'],
  ['post', 'After publishing'],
] as const;

/** What the node colours mean; the columns follow the same order. */
export const NetworkLegend = () => (
  <Group gap="md" aria-label="Node colours">
    {LEGEND.map(([type, label]) => (
      <Group key={type} gap={4}>
        <span
          aria-hidden
          style={{
            display: 'inline-block',
            width: 12,
            height: 12,
            borderRadius: 3,
            background: `var(--mantine-color-${TYPE_COLOURS[type]}-light)`,
            border: `1px solid var(--mantine-color-${TYPE_COLOURS[type]}-filled)`,
          }}
        />
        <Text size="xs">{label}</Text>
      </Group>
    ))}
  </Group>
);
