import { isDirty } from '@media/contract';
import { useEffect } from 'react';
import type { useSaveState } from '../../ui/useSaveState.ts';

/**
 * Takes the server's newer values (a live update) into a saved card, unless the user is editing it or a
 * save is under way; the values are compared as JSON so a refetch with equal values changes nothing.
 */
export const useFollowServerValues = <T>(
  form: ReturnType<typeof useSaveState<T>>,
  initial: T,
  saved: boolean,
) => {
  const serverValues = JSON.stringify(initial);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the server's values counts
  useEffect(() => {
    if (saved && !isDirty(form.value, form.saved) && form.state === 'clean')
      form.reset(JSON.parse(serverValues) as T);
  }, [serverValues]);
};
