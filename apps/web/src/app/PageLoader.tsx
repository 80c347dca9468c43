import { Center, Loader } from '@mantine/core';

/** The full-page loader: while a page's code or the signed-in user is loading. */
export const PageLoader = () => (
  <Center mih="100vh">
    <Loader aria-label="Loading" />
  </Center>
);
