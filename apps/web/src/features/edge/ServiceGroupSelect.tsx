import { Select } from '@mantine/core';
import type { ServiceGroup } from '@media/contract';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../api/client.ts';
import { EDGE_QUERY_KEY } from '../../api/edge.ts';

/** The Select's value for "a group of its own" (no serviceGroupId sent). */
export const OWN_GROUP = 'own';

/** GET /api/edgeServers/{id}/serviceGroups?typeId=: the fail-over groups a new service of the type may join. */
export const useServiceGroups = (edgeServerId: number, typeId: string) =>
  useQuery({
    queryKey: [...EDGE_QUERY_KEY, 'serviceGroups', edgeServerId, typeId],
    queryFn: () =>
      apiFetch<ServiceGroup[]>(
        `/api/edgeServers/${edgeServerId}/serviceGroups?${new URLSearchParams({ typeId })}`,
      ),
    retry: false,
  });

/** "Fail-over with Ingest A (Edge 1), Ingest B (Edge 2)". */
export const serviceGroupLabel = (group: ServiceGroup) =>
  `Fail-over with ${group.services.map((s) => `${s.name} (${s.edgeServerName})`).join(', ')}`;

/** The body's serviceGroupId (spec2 §3: only on create): none for a group of its own. */
export const serviceGroupIdOf = (value: string) => (value === OWN_GROUP ? undefined : Number(value));

/**
 * Where a new service runs for fail-over (serviceGroupId on create): a group of its own, or the group of
 * services of its type on edge servers the user manages.
 */
export const ServiceGroupSelect = (props: {
  edgeServerId: number;
  typeId: string;
  value: string;
  onChange: (value: string) => void;
}) => {
  const groups = useServiceGroups(props.edgeServerId, props.typeId);
  const data = [
    { value: OWN_GROUP, label: 'A group of its own' },
    ...(groups.data ?? []).map((group) => ({
      value: String(group.serviceGroupId),
      label: serviceGroupLabel(group),
    })),
  ];
  return (
    <Select
      label="Service group"
      description="Services of one group stand in for each other (fail-over)"
      data={data}
      value={props.value}
      allowDeselect={false}
      error={
        groups.error ? `An error occurred while fetching the groups: ${groups.error.message}` : undefined
      }
      onChange={(next) => next && props.onChange(next)}
    />
  );
};
