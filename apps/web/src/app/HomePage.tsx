import { Stack, Text, Title } from '@mantine/core';
import { useMe } from '../api/auth.ts';

export const HomePage = () => {
  const me = useMe();
  return (
    <Stack>
      <Title order={2}>Welcome{me.data?.fullname ? `, ${me.data.fullname}` : ''}</Title>
      <Text c="dimmed">
        Accounts, users, edge servers and publishing will appear here as their areas arrive.
      </Text>
    </Stack>
  );
};
