import { Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { REAUTH_DONE_CHANNEL } from '../../api/oidc.ts';

/**
 * The end of a re-authentication at the identity provider, in the window the "Confirm it's you" prompt
 * opened: the session's sign-in is now recent (the callback renewed it), so it tells this site's pages
 * (the prompt waiting for it sends the change again), and closes.
 */
export const ReauthDonePage = () => {
  useEffect(() => {
    const channel = new BroadcastChannel(REAUTH_DONE_CHANNEL);
    channel.postMessage('done');
    channel.close();
    // A window the page opened closes itself (a browser may refuse: the text says it may be closed).
    window.close();
  }, []);
  return (
    <Center mih="60vh">
      <Stack align="center" gap="xs" data-testid="reauth-done">
        <Title order={2}>You are confirmed</Title>
        <Text c="dimmed">You can close this window and go on where you were.</Text>
      </Stack>
    </Center>
  );
};
