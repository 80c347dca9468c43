import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export const NotFoundPage = () => (
  <Center mih="60vh">
    <Stack align="center" gap="xs">
      <Title order={2}>Page not found</Title>
      <Text c="dimmed">There is no page at this address.</Text>
      <Anchor component={Link} to="/">
        Go to the start page
      </Anchor>
    </Stack>
  </Center>
);
