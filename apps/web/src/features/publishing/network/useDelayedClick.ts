import { NETWORK_DOUBLE_CLICK_MS } from '@media/contract';
import { useCallback, useEffect, useRef } from 'react';

/**
 * spec3 §2: a single click in network mode acts only after NETWORK_DOUBLE_CLICK_MS, so the clicks of a
 * double-click (which cancels the pending one) are not mistaken for it.
 */
export const useDelayedClick = (delay: number = NETWORK_DOUBLE_CLICK_MS) => {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancel = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  const schedule = useCallback(
    (action: () => void) => {
      cancel();
      timer.current = setTimeout(() => {
        timer.current = null;
        action();
      }, delay);
    },
    [cancel, delay],
  );
  useEffect(() => cancel, [cancel]);
  return { schedule, cancel };
};
