import { Alert, Button, Group, Paper, Stack, Title } from '@mantine/core';
import type { PublishModule, PublishNetwork } from '@media/contract';
import { NetworkEditor } from './network/NetworkEditor.tsx';

type Props = {
  name: string;
  network: PublishNetwork;
  modules: readonly PublishModule[];
  stratified: boolean;
  readOnly?: boolean;
  onChange: (network: PublishNetwork, info: { stratified: boolean; problems: string[] }) => void;
  onSelectNode: (nodeLocalId: number | null) => void;
  onClose: () => void;
};

/**
 * Network mode of one button (spec3 §2, §4): the graph editor (which lists the network's problems) and a
 * note once the network is no longer stratified.
 */
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
          This network is no longer stratified: it can only be edited here, in network mode.
        </Alert>
      )}
      <NetworkEditor
        network={props.network}
        modules={props.modules}
        readOnly={props.readOnly}
        onChange={props.onChange}
        onSelectNode={props.onSelectNode}
      />
    </Stack>
  </Paper>
);
