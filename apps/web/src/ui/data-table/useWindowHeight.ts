import { useSyncExternalStore } from 'react';

const subscribe = (listener: () => void) => {
  window.addEventListener('resize', listener);
  return () => window.removeEventListener('resize', listener);
};

/** Rendered on the server (tests) the window is taken as 800 px high. */
const SERVER_HEIGHT = 800;

/** The window's inner height, followed as the window is resized. */
export const useWindowHeight = () =>
  useSyncExternalStore(
    subscribe,
    () => window.innerHeight,
    () => SERVER_HEIGHT,
  );
