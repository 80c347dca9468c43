import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** A page of the cloud a role may not use, reached by its address: said plainly, with the way back. */
export const NotForRolePage = ({ page }: { page: string }) => (
  <Center mih="60vh">
    <Stack align="center" gap="xs" data-testid="not-for-role">
      <Title order={2}>{page} is not available to your role</Title>
      <Text c="dimmed">Ask an administrator if you need it.</Text>
      <Anchor component={Link} to="/">
        Go to the start page
      </Anchor>
    </Stack>
  </Center>
);
