import { Badge, Button } from '@mantine/core';
import { EDGE_LINKS, type EdgeContext, type Endpoint } from '@media/contract';
import { Link } from 'react-router';
import { useEndpointQueueLookup } from '../ingest/queue-queries.ts';
import { itemsOfEndpoint } from '../ingest/queue-request.ts';

/** The card's way to the ingest queue of its endpoint. */
export const EndpointQueueLink = ({ endpoint, context }: { endpoint: Endpoint; context: EdgeContext }) => (
  <Button
    size="xs"
    variant="default"
    component={Link}
    to={EDGE_LINKS.endpointIngestQueue(endpoint.edgeServerId, endpoint.serviceId, endpoint.id, context)}
    aria-label={`Ingest queue of ${endpoint.name}`}
  >
    Ingest queue
  </Button>
);

/**
 * A stream endpoint's queued stream items, found by spec2 §7's lookup (the edge server's queue read once for
 * every card, filtered by endpoint here).
 */
export const QueuedStreamsBadge = ({ endpoint }: { endpoint: Endpoint }) => {
  const lookup = useEndpointQueueLookup(endpoint.edgeServerId);
  if (!lookup.data) return null;
  const count = itemsOfEndpoint(lookup.data.results, endpoint.id).length;
  return (
    <Badge color={count ? 'blue' : 'gray'} variant="light" data-testid="queued-streams">
      {count === 1 ? '1 queued stream' : `${count} queued streams`}
    </Badge>
  );
};
