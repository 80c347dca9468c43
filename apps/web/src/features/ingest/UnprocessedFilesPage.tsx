import { Alert, Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { useQueueEdgeServer, useQueueEndpoints } from '../../api/ingest.ts';
import { EdgeTitle, useEdgeContext } from './IngestQueuePage.tsx';
import { UnprocessedFilesView } from './UnprocessedFilesView.tsx';

/** `/edge/{edgeServerId}/unprocessedFiles?context=`: the unprocessed files of the edge's endpoints. */
export const UnprocessedFilesPage = () => {
  const edgeServerId = Number(useParams().edgeServerId);
  const context = useEdgeContext();
  if ('error' in context)
    return (
      <Alert color="red" role="alert">
        {context.error}
      </Alert>
    );
  return <EdgeUnprocessed edgeServerId={edgeServerId} context={context.context} />;
};

const EdgeUnprocessed = ({
  edgeServerId,
  context,
}: {
  edgeServerId: number;
  context: 'cloud' | 'site' | 'user';
}) => {
  const edge = useQueueEdgeServer(edgeServerId);
  const endpoints = useQueueEndpoints({ kind: 'edge', edgeServerId });
  return (
    <Stack maw={1280}>
      <EdgeTitle title="Unprocessed files" edge={edge} context={context} edgeServerId={edgeServerId} />
      {!edge.isError && (
        <UnprocessedFilesView
          endpoints={endpoints.data?.results}
          endpointsError={endpoints.error ? endpoints.error.message : null}
        />
      )}
    </Stack>
  );
};
