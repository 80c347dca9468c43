import { Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { useMe } from '../../api/auth.ts';
import { EdgeServersList } from './EdgeServersList.tsx';

/** `/users/{userId}/edge`: a user's own edge servers (user context); `#/{id}` selects one. */
export const UserEdgeServersPage = () => {
  const { userId } = useParams();
  const id = Number(userId);
  const me = useMe();
  const own = me.data?.id === id;
  return (
    <Stack>
      <div>
        <Title order={2}>Edge servers</Title>
        <Text c="dimmed" size="sm">
          {own ? 'Your edge servers' : 'The edge servers this user owns'}: the machines that ingest files and
          live streams into the cloud.
        </Text>
      </div>
      <EdgeServersList scope={{ context: 'user', id }} ownerId={id} selectionInAddress />
    </Stack>
  );
};

/** `/admin/edge`: every edge server of the cloud, for administrators (cloud context). */
export const AdminEdgeServersPage = () => {
  const me = useMe();
  return (
    <Stack>
      <div>
        <Title order={2}>Edge servers</Title>
        <Text c="dimmed" size="sm">
          Every edge server in the cloud. New edge servers made here belong to you.
        </Text>
      </div>
      {me.data && <EdgeServersList scope={{ context: 'cloud' }} ownerId={me.data.id} />}
    </Stack>
  );
};
