import { Anchor, AppShell, Button, Center, Group, Loader, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useLogout, useMe } from '../api/auth.ts';
import { AlertCounts } from '../ui/alerts.tsx';
import { ColorSchemeToggle } from './ColorSchemeToggle.tsx';

/** The signed-in layout; without a session it sends the user to the sign-in page and back. */
export const Shell = ({ children }: { children?: ReactNode }) => {
  const me = useMe();
  const logout = useLogout();
  const navigate = useNavigate();
  const location = useLocation();

  if (me.isPending) {
    return (
      <Center mih="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (me.isError) {
    return (
      <Center mih="100vh">
        <Text c="red">Could not load your user: {me.error.message}</Text>
      </Center>
    );
  }
  if (!me.data) {
    return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }

  const signOut = async () => {
    await logout.mutateAsync();
    await navigate('/login', { replace: true });
  };

  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Anchor component={Link} to="/" underline="never" c="inherit">
            <Title order={3}>Media Cloud</Title>
          </Anchor>
          <Group gap="sm">
            <AlertCounts />
            <ColorSchemeToggle />
            <Anchor
              component={Link}
              to={`/users/user_settings/${me.data.id}/`}
              size="sm"
              data-testid="signed-in-user"
            >
              {me.data.username}
            </Anchor>
            <Button variant="default" size="xs" onClick={signOut} loading={logout.isPending}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>{children ?? <Outlet />}</AppShell.Main>
    </AppShell>
  );
};
