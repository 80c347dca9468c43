import { Alert, Anchor, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { EDGE_LINKS, type EdgeContext, type IngestQueueMode, parseEdgeContext } from '@media/contract';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useArrivalsFolderChoices } from '../../api/arrivals.ts';
import { isRefusedOrMissing } from '../../api/client.ts';
import { type QueueScope, useQueueEdgeServer } from '../../api/ingest.ts';
import { NotForRolePage } from '../../ui/MessagePage.tsx';
import { AccountFrame } from '../arrivals/AccountFrame.tsx';
import { EndpointQueue } from './EndpointQueue.tsx';
import { IngestQueueView } from './IngestQueueView.tsx';
import { readFilter, readMode, readThumbSize } from './queue-address.ts';

/** Reads the context of an edge page; an unknown one is the spec's error. */
export const useEdgeContext = (): { context: EdgeContext } | { error: string } => {
  const [params] = useSearchParams();
  try {
    return { context: parseEdgeContext(params.get('context')) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
};

/**
 * The ingest queue page, one component for four addresses: `/edge/{edgeServerId}/ingestQueue`,
 * `/edge/{edgeServerId}/services/{serviceId}/endpoints/{endpointId}/ingestQueue`,
 * `/accounts/{accountId}/arrivals/{arrivalsFolderId}/ingestQueue` and `/accounts/{accountId}/ingestQueue`,
 * each with `?mode=files|streams|unprocessed` and `thumbsize`.
 */
export const IngestQueuePage = () => {
  const params = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const mode = readMode(search.get('mode'));
  const thumbSize = readThumbSize(search.get('thumbsize'));
  const filter = readFilter(search.get('filter'));
  const edgeContext = useEdgeContext();

  // The mode is part of the address, so a link or a reload shows the same view; the hash stays.
  const setMode = (next: IngestQueueMode | undefined) => {
    const query = new URLSearchParams(search);
    if (next) query.set('mode', next);
    else query.delete('mode');
    if (next === 'streams' && !query.has('thumbsize')) query.set('thumbsize', '1.0');
    void navigate({ search: `?${query}`, hash: location.hash });
  };

  const view = (scope: QueueScope) => (
    <IngestQueueView
      key={JSON.stringify(scope)}
      scope={scope}
      mode={mode}
      thumbSize={thumbSize}
      onModeChange={setMode}
      initialStatuses={filter.statuses}
      initialKinds={filter.kinds}
    />
  );

  if (params.endpointId !== undefined) {
    const context = edgeContext;
    if ('error' in context) return invalid(context.error);
    return (
      <EndpointQueue endpointId={Number(params.endpointId)} context={context.context}>
        {view}
      </EndpointQueue>
    );
  }
  if (params.edgeServerId !== undefined)
    return <EdgeQueue edgeServerId={Number(params.edgeServerId)}>{view}</EdgeQueue>;
  const accountId = Number(params.accountId);
  const folderId = params.arrivalsFolderId === undefined ? undefined : Number(params.arrivalsFolderId);
  return (
    <AccountFrame accountId={accountId} title="Ingest queue" managersOnly>
      {() => (
        <Stack gap="sm">
          <FolderChooser accountId={accountId} folderId={folderId} mode={mode} />
          {folderId === undefined
            ? view({ kind: 'account', accountId })
            : Number.isInteger(folderId) && folderId > 0
              ? view({ kind: 'folder', accountId, arrivalsFolderId: folderId })
              : invalid('This address names no arrivals folder.')}
        </Stack>
      )}
    </AccountFrame>
  );
};

const invalid = (text: string) => (
  <Alert color="red" role="alert">
    {text}
  </Alert>
);

const ALL_FOLDERS = 'all';

/** Where a folder is chosen: the whole account's queue or one folder's (spec2 §6 on a 403). */
const FolderChooser = ({
  accountId,
  folderId,
  mode,
}: {
  accountId: number;
  folderId: number | undefined;
  mode: IngestQueueMode | undefined;
}) => {
  const folders = useArrivalsFolderChoices(accountId);
  const navigate = useNavigate();
  const data = folders.forbidden
    ? folders.choices
    : [{ value: ALL_FOLDERS, label: 'All arrivals folders' }, ...folders.choices];
  return (
    <Group gap="sm" align="flex-end">
      <Select
        label="Arrivals folder"
        w={320}
        data={data}
        disabled={folders.forbidden}
        value={folders.forbidden ? '' : folderId === undefined ? ALL_FOLDERS : String(folderId)}
        allowDeselect={false}
        onChange={(next) => {
          if (!next) return;
          void navigate(
            next === ALL_FOLDERS
              ? EDGE_LINKS.accountIngestQueue(accountId, mode)
              : EDGE_LINKS.arrivalsIngestQueue(accountId, Number(next), mode),
          );
        }}
      />
      <Anchor component={Link} to={EDGE_LINKS.arrivals(accountId, folderId)} size="sm" mb={8}>
        Arrivals folders
      </Anchor>
    </Group>
  );
};

/** An edge server's queue: its context must be cloud, site or user. */
const EdgeQueue = ({
  edgeServerId,
  children,
}: {
  edgeServerId: number;
  children: (scope: QueueScope) => ReactNode;
}) => {
  const context = useEdgeContext();
  if ('error' in context) return invalid(context.error);
  if (!Number.isInteger(edgeServerId) || edgeServerId <= 0)
    return invalid('This address names no edge server.');
  return (
    <EdgeQueueFrame title="Ingest queue" edgeServerId={edgeServerId} context={context.context}>
      {children({ kind: 'edge', edgeServerId })}
    </EdgeQueueFrame>
  );
};

/**
 * An edge server's queue page: its content asks the server only once the edge server has loaded, and an edge
 * server the person may not see says so instead.
 */
export const EdgeQueueFrame = ({
  title,
  edgeServerId,
  context,
  children,
}: {
  title: string;
  edgeServerId: number;
  context: EdgeContext;
  children: ReactNode;
}) => {
  const edge = useQueueEdgeServer(edgeServerId);
  if (isRefusedOrMissing(edge.error)) return <NotForRolePage page={`Edge server ${edgeServerId}`} />;
  return (
    <Stack maw={1280}>
      <EdgeTitle title={title} edge={edge} context={context} edgeServerId={edgeServerId} />
      {edge.data && children}
    </Stack>
  );
};

export const EdgeTitle = ({
  title,
  edge,
  context,
  edgeServerId,
}: {
  title: string;
  edge: ReturnType<typeof useQueueEdgeServer>;
  context: EdgeContext;
  edgeServerId: number;
}) => (
  <div>
    <Title order={2}>{title}</Title>
    {edge.isPending && <Loader size="xs" aria-label="Loading" />}
    {edge.isError && invalid(`An error occurred while fetching the data: ${edge.error.message}`)}
    {edge.data && (
      <Text c="dimmed" size="sm">
        Edge server{' '}
        <Anchor component={Link} to={EDGE_LINKS.edgeServer(edge.data.userId, edgeServerId)} size="sm">
          {edge.data.name}
        </Anchor>{' '}
        ·{' '}
        <Anchor component={Link} to={EDGE_LINKS.services(edgeServerId, context)} size="sm">
          Services
        </Anchor>
      </Text>
    )}
  </div>
);
