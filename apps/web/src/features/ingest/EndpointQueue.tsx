import { Alert, Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import { EDGE_LINKS, type EdgeContext } from '@media/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { QueueScope } from '../../api/ingest.ts';
import { useQueueEndpoint } from './queue-queries.ts';

/**
 * The ingest queue of one endpoint (the queue area's endpoint id input, spec2 §1), reached from its card:
 * `/edge/{edgeServerId}/services/{serviceId}/endpoints/{endpointId}/ingestQueue?context=`.
 */
export const EndpointQueue = ({
  endpointId,
  context,
  children,
}: {
  endpointId: number;
  context: EdgeContext;
  children: (scope: QueueScope) => ReactNode;
}) => {
  const endpoint = useQueueEndpoint(endpointId);
  if (!Number.isInteger(endpointId) || endpointId <= 0)
    return (
      <Alert color="red" role="alert">
        This address names no endpoint.
      </Alert>
    );
  return (
    <Stack maw={1280}>
      <div>
        <Title order={2}>Ingest queue</Title>
        {endpoint.isPending && <Loader size="xs" aria-label="Loading" />}
        {endpoint.isError && (
          <Alert color="red" role="alert">
            {`An error occurred while fetching the data: ${endpoint.error.message}`}
          </Alert>
        )}
        {endpoint.data && (
          <Text c="dimmed" size="sm" data-testid="queue-endpoint">
            Endpoint{' '}
            <Anchor
              component={Link}
              size="sm"
              to={EDGE_LINKS.endpoints(
                endpoint.data.edgeServerId,
                endpoint.data.serviceId,
                context,
                endpoint.data.id,
              )}
            >
              {endpoint.data.name}
            </Anchor>{' '}
            ·{' '}
            <Anchor
              component={Link}
              size="sm"
              to={EDGE_LINKS.edgeIngestQueue(endpoint.data.edgeServerId, context)}
            >
              Edge server queue
            </Anchor>
          </Text>
        )}
      </div>
      {endpoint.isError ? null : children({ kind: 'endpoint', endpointId })}
    </Stack>
  );
};
