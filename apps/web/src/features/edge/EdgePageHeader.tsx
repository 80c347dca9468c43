import { Alert, Anchor, Breadcrumbs, Loader, Stack, Text, Title } from '@mantine/core';
import { EDGE_LINKS, type EdgeContext, type EdgeServer } from '@media/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { isRefusedOrMissing } from '../../api/client.ts';
import { useEdgeServer } from '../../api/edge.ts';
import { NotForRolePage } from '../../ui/MessagePage.tsx';
import { ConnectionBadge } from './EdgeCard.tsx';

/** Where "Edge servers" leads back to from an edge's pages, by the page's context. */
export const edgeServersLink = (edge: EdgeServer, context: EdgeContext) =>
  context === 'cloud'
    ? '/admin/edge'
    : context === 'site' && edge.siteId
      ? `/site/${edge.siteId}#edge-servers`
      : EDGE_LINKS.edgeServer(edge.userId, edge.id);

/** spec2 §2: an edge page address with another context is an error page. */
export const InvalidContext = ({ message }: { message: string }) => (
  <Alert color="red" role="alert" title="This page cannot be shown">
    {message}
  </Alert>
);

/** The title and trail of an edge server's sub-pages, once the edge server has loaded. */
export const EdgePageFrame = (props: {
  edgeServerId: number;
  context: EdgeContext;
  title: (edge: EdgeServer) => string;
  trail?: (edge: EdgeServer) => ReactNode[];
  children: (edge: EdgeServer) => ReactNode;
}) => {
  const edge = useEdgeServer(props.edgeServerId);
  if (edge.isPending) return <Loader aria-label="Loading" />;
  if (isRefusedOrMissing(edge.error)) return <NotForRolePage page={`Edge server ${props.edgeServerId}`} />;
  if (edge.isError)
    return (
      <Alert color="red" role="alert">
        An error occurred while fetching the data: {edge.error.message}
      </Alert>
    );
  const server = edge.data;
  return (
    <Stack>
      <Breadcrumbs separator="›">
        <Anchor component={Link} to={edgeServersLink(server, props.context)} size="sm">
          Edge servers
        </Anchor>
        {props.trail?.(server)}
      </Breadcrumbs>
      <div>
        <Title order={2}>{props.title(server)}</Title>
        <Text c="dimmed" size="sm" component="div">
          Edge server {server.name} · <ConnectionBadge edge={server} />
        </Text>
      </div>
      {props.children(server)}
    </Stack>
  );
};
