import { Badge, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { type ArrivalsAssignment, EDGE_MESSAGES, type Endpoint } from '@media/contract';
import { useState } from 'react';
import { useAssignEndpoint } from '../../api/arrivals.ts';
import { showAlert } from '../../ui/alerts.tsx';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The endpoints assigned to one folder, each with Unassign, and a select to assign another. */
export const FolderEndpoints = ({
  accountId,
  folder,
  endpoints,
  assignments,
}: {
  accountId: number;
  folder: { id: number; name: string };
  endpoints: Endpoint[];
  assignments: ArrivalsAssignment[];
}) => {
  const assign = useAssignEndpoint(accountId);
  const [choice, setChoice] = useState<string | null>(null);
  const folderOf = new Map(assignments.map((a) => [a.endpointId, a.arrivalsFolderId]));
  const assigned = endpoints.filter((endpoint) => folderOf.get(endpoint.id) === folder.id);
  const others = endpoints
    .filter((endpoint) => folderOf.get(endpoint.id) !== folder.id)
    .map((endpoint) => ({
      value: String(endpoint.id),
      label: folderOf.has(endpoint.id) ? `${endpoint.name} (moves from another folder)` : endpoint.name,
    }));

  const change = async (endpoint: Pick<Endpoint, 'id' | 'name'>, remove: boolean) => {
    try {
      await assign.mutateAsync({
        assignment: { endpointId: endpoint.id, arrivalsFolderId: folder.id },
        remove,
      });
      setChoice(null);
    } catch (error) {
      showAlert({
        type: 'danger',
        text: `Unable to ${remove ? 'unassign' : 'assign'} ${endpoint.name} - ${errorText(error)}`,
        source: 'arrivals',
      });
    }
  };

  return (
    <Stack gap="xs">
      {assigned.length === 0 ? (
        <Text size="sm" c="dimmed">
          No endpoints deliver into this folder yet.
        </Text>
      ) : (
        <Table aria-label={`Endpoints of ${folder.name}`} verticalSpacing={4}>
          <Table.Tbody>
            {assigned.map((endpoint) => (
              <Table.Tr key={endpoint.id}>
                <Table.Td>{endpoint.name}</Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {endpoint.typeId}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={endpoint.online ? 'teal' : 'gray'}>
                    {endpoint.online ? 'Online' : 'Offline'}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right">
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    aria-label={`Unassign ${endpoint.name}`}
                    disabled={assign.isPending}
                    onClick={() => void change(endpoint, true)}
                  >
                    Unassign
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {others.length > 0 && (
        <Group gap="xs" align="flex-end">
          <Select
            label="Assign an endpoint"
            size="xs"
            w={300}
            searchable
            placeholder={EDGE_MESSAGES.selectPlaceholder}
            data={others}
            value={choice}
            onChange={setChoice}
          />
          <Button
            size="xs"
            variant="light"
            disabled={!choice || assign.isPending}
            onClick={() => {
              const endpoint = endpoints.find((e) => String(e.id) === choice);
              if (endpoint) void change(endpoint, false);
            }}
          >
            Assign
          </Button>
        </Group>
      )}
    </Stack>
  );
};
