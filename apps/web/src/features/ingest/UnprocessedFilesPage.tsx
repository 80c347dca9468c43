import { Alert } from '@mantine/core';
import { useParams } from 'react-router';
import { useQueueEndpoints } from '../../api/ingest.ts';
import { EdgeQueueFrame, useEdgeContext } from './IngestQueuePage.tsx';
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
  return (
    <EdgeQueueFrame title="Unprocessed files" edgeServerId={edgeServerId} context={context}>
      <EdgeUnprocessedFiles edgeServerId={edgeServerId} />
    </EdgeQueueFrame>
  );
};

const EdgeUnprocessedFiles = ({ edgeServerId }: { edgeServerId: number }) => {
  const endpoints = useQueueEndpoints({ kind: 'edge', edgeServerId });
  return (
    <UnprocessedFilesView
      endpoints={endpoints.data?.results}
      endpointsError={endpoints.error ? endpoints.error.message : null}
    />
  );
};
