import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

/** A page that only says something (not found, not for this role), with the way back to the start page. */
export const MessagePage = ({ title, text, testId }: { title: string; text: string; testId?: string }) => (
  <Center mih="60vh">
    <Stack align="center" gap="xs" data-testid={testId}>
      <Title order={2}>{title}</Title>
      <Text c="dimmed">{text}</Text>
      <Anchor component={Link} to="/">
        Go to the start page
      </Anchor>
    </Stack>
  </Center>
);

/** A page, or the subject of a page, a role may not use, reached by its address: said plainly, with the way back. */
export const NotForRolePage = ({ page }: { page: string }) => (
  <MessagePage
    title={`${page} is not available to your role`}
    text="Ask an administrator if you need it."
    testId="not-for-role"
  />
);
