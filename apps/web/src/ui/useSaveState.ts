import { useInterval } from '@mantine/hooks';
import { DIRTY_CHECK_MS, isDirty, isSaving, type SaveState, stateWhileSaving } from '@media/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { markDirty } from './unsaved-changes.tsx';

type Options<T> = {
  /** Writes the object; answers what the server saved. */
  save: (value: T) => Promise<T>;
  isNew?: boolean;
  /** On failure, also put the last saved copy back into the form. */
  restoreSnapshotOnFailure?: boolean;
};

/**
 * Per-object save state (spec1 §4): new → creating → clean, clean → saving → clean, a failure restores
 * the previous state; a 100 ms dirty check lists the object among those that warn before leaving.
 */
export const useSaveState = <T>(initial: T, options: Options<T>) => {
  const id = useId();
  const [value, setValue] = useState<T>(initial);
  const [saved, setSaved] = useState<T>(initial);
  const [state, setState] = useState<SaveState>(options.isNew ? 'new' : 'clean');
  const [dirty, setDirty] = useState(false);
  const current = useRef({ value, saved });
  current.current = { value, saved };

  useInterval(
    () => {
      const next = isDirty(current.current.value, current.current.saved);
      setDirty(next);
      markDirty(id, next);
    },
    DIRTY_CHECK_MS,
    { autoInvoke: true },
  );
  useEffect(() => () => markDirty(id, false), [id]);

  const save = async () => {
    const previous = state;
    setState(stateWhileSaving(previous));
    try {
      const result = await options.save(value);
      setSaved(result);
      setValue(result);
      setState('clean');
      return result;
    } catch (error) {
      setState(previous);
      if (options.restoreSnapshotOnFailure) setValue(saved);
      throw error;
    }
  };

  /** Takes fresh server data as the saved copy (after a load or a reload). */
  const reset = (next: T) => {
    setSaved(next);
    setValue(next);
    setState('clean');
  };

  return {
    value,
    setValue,
    saved,
    state,
    dirty,
    saving: isSaving(state),
    save,
    discard: () => setValue(saved),
    reset,
  };
};
