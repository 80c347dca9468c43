/**
 * Coordinates the "Confirm it's you" prompt (DESIGN.md, sessions): a sensitive change answered 401 `reauth`
 * waits on one prompt, however many ask, then goes again once the password is entered, or fails when the
 * person cancels. Unlike the re-login dialog, the session stands throughout: nobody is signed out.
 */
export type ReauthState = { open: boolean };

export const createReauthCoordinator = () => {
  let pending: { promise: Promise<boolean>; resolve: (confirmed: boolean) => void } | undefined;
  /** How many prompts were answered with the password: a request notes it before it is sent. */
  let confirmations = 0;
  let state: ReauthState = { open: false };
  const listeners = new Set<(state: ReauthState) => void>();
  const publish = (next: ReauthState) => {
    state = next;
    for (const listener of listeners) listener(state);
  };
  const settle = (confirmed: boolean) => {
    const waiting = pending;
    pending = undefined;
    publish({ open: false });
    waiting?.resolve(confirmed);
  };
  return {
    /** The count of confirmations so far, to hand back to `request` if the request is refused. */
    confirmations: () => confirmations,
    /**
     * Opens the prompt (once, however many requests ask) and resolves true when the password was entered,
     * false when the person cancelled. A request sent before a confirmation that has since come (its
     * `sentAfter` is older) goes again at once: it was refused for a sign-in that is now fresh.
     */
    request(sentAfter: number): Promise<boolean> {
      if (sentAfter < confirmations) return Promise.resolve(true);
      if (!pending) {
        let resolve: (confirmed: boolean) => void = () => {};
        const promise = new Promise<boolean>((r) => {
          resolve = r;
        });
        pending = { promise, resolve };
        publish({ open: true });
      }
      return pending.promise;
    },
    confirmed() {
      confirmations += 1;
      settle(true);
    },
    cancelled() {
      settle(false);
    },
    subscribe(listener: (state: ReauthState) => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getState: () => state,
  };
};

export type ReauthCoordinator = ReturnType<typeof createReauthCoordinator>;
