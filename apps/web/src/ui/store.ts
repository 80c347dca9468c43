import { useSyncExternalStore } from 'react';

/** A tiny external store for app-wide UI state that lives outside React (alerts, dirty objects). */
export const createStore = <T>(initial: T) => {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next: T) {
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
};

export const useStore = <T>(store: ReturnType<typeof createStore<T>>) =>
  useSyncExternalStore(store.subscribe, store.get);
