import { MSG_NOT_SIGNED_IN } from '@media/contract';

/**
 * Coordinates the re-login dialog: every request answered 401 waits on the same sign-in, then retries.
 * `message` is the reason the session ended (a disconnect's message), never the plain "not signed in".
 */
export type ReloginState = { open: boolean; message?: string };

const reasonOf = (message?: string) => (message && message !== MSG_NOT_SIGNED_IN ? message : undefined);

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
        publish({ open: true, message: reasonOf(message) });
      } else if (!state.message && reasonOf(message)) {
        // Calls that raced the one carrying the reason may answer first, with the plain 401.
        publish({ open: true, message: reasonOf(message) });
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
