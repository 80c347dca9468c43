/**
 * The modals manager (ModalsProvider) loads after the first render, and `modals.open` before it listens
 * would be lost: the dialogs wait on this promise, resolved once it is mounted.
 */
let markReady = () => {};
export const modalsReady = new Promise<void>((resolve) => {
  markReady = resolve;
});
export const modalsMounted = () => markReady();
