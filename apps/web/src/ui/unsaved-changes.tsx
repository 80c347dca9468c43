import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { createStore, useStore } from './store.ts';

/** The objects with unsaved changes; the page warns before it is left while any is listed. */
const dirtyObjects = createStore<ReadonlySet<string>>(new Set());

export const markDirty = (id: string, dirty: boolean) => {
  const current = dirtyObjects.get();
  if (current.has(id) === dirty) return;
  const next = new Set(current);
  if (dirty) next.add(id);
  else next.delete(id);
  dirtyObjects.set(next);
};

export const useHasUnsavedChanges = () => useStore(dirtyObjects).size > 0;

export const MSG_UNSAVED_CHANGES = 'You have unsaved changes. Leave this page and lose them?';

/** Warns before leaving with unsaved changes: on browser unload, and on in-app navigation. */
export const UnsavedChangesGuard = () => {
  const unsaved = useHasUnsavedChanges();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => unsaved && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    // The dialogs' code is loaded when first needed, not with the shell.
    import('./dialogs.tsx')
      .then(({ confirmDialog }) =>
        confirmDialog({
          title: 'Unsaved changes',
          message: MSG_UNSAVED_CHANGES,
          confirmLabel: 'Leave',
          cancelLabel: 'Stay',
          danger: true,
        }),
      )
      .then(
        (leave) => (leave ? blocker.proceed() : blocker.reset()),
        () => blocker.reset(),
      );
  }, [blocker]);

  return null;
};
