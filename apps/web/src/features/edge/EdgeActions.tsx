import { Button, Group, Stack, Switch, Table, Text } from '@mantine/core';
import {
  EDGE_ACTION_WAIT_SECONDS,
  type EdgeAction,
  type EdgeServer,
  edgeResultInWords,
  formatDateTime,
} from '@media/contract';
import { type EdgeActionResult, useEdgeAction, useSupportConnection } from '../../api/edge.ts';
import { notify } from '../../ui/notify.tsx';
import { reasonOf } from './edge-page.ts';

const ACTION_LABELS: Record<EdgeAction, string> = {
  machineLoad: 'Machine load',
  runNewEdgeSpeedTest: 'Run speed test',
  getEdgeSpeedTestResults: 'Speed test results',
};

/** Why a request came back unanswered: the edge server is not connected, or did not answer in time. */
const unansweredText = (result: EdgeActionResult, edge: EdgeServer) => {
  const later =
    result.action === 'machineLoad'
      ? 'ask again then'
      : `${ACTION_LABELS.getEdgeSpeedTestResults} shows the result once it has answered`;
  return edge.connected
    ? `${edge.name} did not answer within ${EDGE_ACTION_WAIT_SECONDS} s; ${later}.`
    : `${edge.name} is not connected: it answers when it next calls in; ${later}.`;
};

const ActionResult = ({ result, edge }: { result: EdgeActionResult; edge: EdgeServer }) => {
  const label = ACTION_LABELS[result.action as EdgeAction] ?? result.action;
  const when = formatDateTime(new Date(result.requestedAt));
  if (result.status === 'requested' || !result.result)
    return (
      <Text size="sm" c="dimmed" data-testid="edge-action-result">
        {label} (requested {when}): {unansweredText(result, edge)}
      </Text>
    );
  return (
    <Stack gap={2} data-testid="edge-action-result">
      <Text size="sm" fw={600}>
        {label} ({when})
      </Text>
      <Table withRowBorders={false} verticalSpacing={2} fz="sm" w="auto">
        <Table.Tbody>
          {Object.entries(result.result).map(([name, value]) => {
            const figure = edgeResultInWords(name, value);
            return (
              <Table.Tr key={name}>
                <Table.Td c="dimmed">{figure.label}</Table.Td>
                <Table.Td>{figure.value}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
};

/** Machine load and speed test requests, and the support connection switch, of a saved edge server. */
export const EdgeActions = ({ edge }: { edge: EdgeServer }) => {
  const action = useEdgeAction(edge.id);
  const support = useSupportConnection();
  const run = (name: EdgeAction) =>
    action.mutate(name, {
      onError: (error) =>
        notify({ type: 'danger', text: `${ACTION_LABELS[name]} failed: ${reasonOf(error)}` }),
    });
  return (
    <Stack gap="xs">
      <Group gap="xs">
        {(Object.keys(ACTION_LABELS) as EdgeAction[]).map((name) => (
          <Button
            key={name}
            size="xs"
            variant="default"
            loading={action.isPending && action.variables === name}
            disabled={action.isPending}
            onClick={() => run(name)}
          >
            {ACTION_LABELS[name]}
          </Button>
        ))}
        <Switch
          ml="md"
          label="Support connection"
          checked={
            support.isPending
              ? (support.variables?.enabled ?? edge.supportConnection)
              : edge.supportConnection
          }
          disabled={support.isPending}
          onChange={(e) =>
            support.mutate(
              { id: edge.id, enabled: e.currentTarget.checked },
              {
                onError: (error) => notify({ type: 'danger', text: reasonOf(error) }),
              },
            )
          }
        />
      </Group>
      {action.data && <ActionResult result={action.data} edge={edge} />}
    </Stack>
  );
};
