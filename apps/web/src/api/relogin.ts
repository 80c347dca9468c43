/**
 * Coordinates the re-login dialog: every request answered 401 waits on the same sign-in, then retries.
 */
export type ReloginState = { open: boolean; message?: string };

export const createReloginCoordinator = () => {
  let pending: { promise: Promise<void>; resolve: () => void } | undefined;
  let state: ReloginState = { open: false };
  const listeners = new Set<(state: ReloginState) => void>();
  const publish = (next: ReloginState) => {
    state = next;
    for (const listener of listeners) listener(state);
  };
  return {
    /** Opens the dialog (once, however many requests ask) and resolves when the user is signed in again. */
    request(message?: string): Promise<void> {
      if (!pending) {
        let resolve = () => {};
        const promise = new Promise<void>((r) => {
          resolve = r;
        });
        pending = { promise, resolve };
        publish({ open: true, message });
      }
      return pending.promise;
    },
    succeeded() {
      const waiting = pending;
      pending = undefined;
      publish({ open: false });
      waiting?.resolve();
    },
    subscribe(listener: (state: ReloginState) => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getState: () => state,
  };
};

export type ReloginCoordinator = ReturnType<typeof createReloginCoordinator>;
