import { Anchor, AppShell, Burger, Button, Center, Group, NavLink, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ReactNode, useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useLogout, useMe } from '../api/auth.ts';
import { NotificationsPopover } from '../features/notifications/NotificationsPopover.tsx';
import { StatusPopover } from '../features/status/StatusPopover.tsx';
import { Deferred, lazyNamed } from '../ui/deferred.tsx';
import { HEADER_HEIGHT } from '../ui/layout.ts';
import { NotForRolePage } from '../ui/MessagePage.tsx';
import { UnsavedChangesGuard } from '../ui/unsaved-changes.tsx';
import { ColorSchemeToggle } from './ColorSchemeToggle.tsx';
import { NAVIGATION, pageNotForRole, SECTION_LABELS } from './navigation.ts';
import { PageLoader } from './PageLoader.tsx';
import { ReloadMessage } from './ReloadMessage.tsx';
import { ReauthDialog } from './reauth-dialog.ts';
import { ReloginDialog } from './relogin-dialog.ts';

// Shown only once an alert is raised: its badges and tooltips load after the shell.
const AlertCounts = lazyNamed(async () => (await import('../ui/AlertCounts.tsx')).AlertCounts);

/** The signed-in layout; without a session it sends the user to the sign-in page and back. */
export const Shell = ({ children }: { children?: ReactNode }) => {
  const me = useMe();
  const navigate = useNavigate();
  const logout = useLogout(() => navigate('/login', { replace: true }));
  const location = useLocation();
  const [navOpened, nav] = useDisclosure(false);
  useEffect(() => {
    ReloginDialog.preload().catch(() => {});
    ReauthDialog.preload().catch(() => {});
  }, []);

  if (me.isPending) return <PageLoader />;
  if (me.isError) {
    return (
      <Center mih="100vh">
        <Text c="red">Could not load your user: {me.error.message}</Text>
      </Center>
    );
  }
  if (!me.data) {
    // Signing out: the session ended before the page left for /login, and a read of the user in between
    // (a query answered 401) must not send it to /login?next=… instead.
    if (logout.isPending || logout.isSuccess) return <PageLoader />;
    return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }
  const user = me.data;

  const signOut = () => logout.mutate();

  const items = NAVIGATION.filter((item) => item.visible(user));
  const forbiddenPage = pageNotForRole(location.pathname, user);
  const sections = [...new Set(items.map((item) => item.section))];

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group gap="sm">
            <Burger
              opened={navOpened}
              onClick={nav.toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Navigation"
            />
            <Anchor component={Link} to="/" underline="never" c="inherit">
              <Title order={3}>Media Cloud</Title>
            </Anchor>
          </Group>
          <Group gap="sm">
            <Deferred fallback={null}>
              <AlertCounts />
            </Deferred>
            <StatusPopover />
            <NotificationsPopover userId={user.id} />
            <ColorSchemeToggle />
            <Anchor
              component={Link}
              to={`/users/user_settings/${user.id}/`}
              size="sm"
              data-testid="signed-in-user"
            >
              {user.username}
            </Anchor>
            <Button variant="default" size="xs" onClick={signOut} loading={logout.isPending}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        <Stack gap="md">
          {sections.map((section) => (
            <Stack gap={2} key={section}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={700} px="xs">
                {SECTION_LABELS[section]}
              </Text>
              {items
                .filter((item) => item.section === section)
                .map((item) => {
                  const to = item.to(user);
                  return (
                    <NavLink
                      key={item.label}
                      component={Link}
                      to={to}
                      label={item.label}
                      active={location.pathname === to}
                      onClick={nav.close}
                    />
                  );
                })}
            </Stack>
          ))}
        </Stack>
      </AppShell.Navbar>
      <AppShell.Main>
        <UnsavedChangesGuard />
        <ReloadMessage />
        {forbiddenPage ? <NotForRolePage page={forbiddenPage.label} /> : (children ?? <Outlet />)}
      </AppShell.Main>
    </AppShell>
  );
};
