/**
 * The modals manager (ModalsProvider) is loaded when the first dialog asks for it (the sign-in page never
 * does), and `modals.open` before it listens would be lost: a dialog awaits `modalsManager()`, which asks
 * for it and resolves once it is mounted.
 */
let markReady = () => {};
const ready = new Promise<void>((resolve) => {
  markReady = resolve;
});
export const modalsMounted = () => markReady();

let wanted = false;
const listeners = new Set<() => void>();
/** Whether a dialog has asked for the manager yet (a store for useSyncExternalStore). */
export const modalsWanted = {
  subscribe: (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  get: () => wanted,
};

/** Asks for the modals manager and resolves once it listens. */
export const modalsManager = () => {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  return ready;
};
