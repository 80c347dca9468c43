import { useEffect } from 'react';
import { markDirty } from '../../ui/unsaved-changes.tsx';

/** Lists the object among those with unsaved changes while `dirty`, and takes it off when unmounted. */
export const useDirtyMark = (id: string, dirty: boolean) => {
  useEffect(() => {
    markDirty(id, dirty);
    return () => markDirty(id, false);
  }, [id, dirty]);
};
