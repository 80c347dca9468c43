import { NETWORK_DOUBLE_CLICK_MS } from '@media/contract';
import { useEffect, useMemo } from 'react';

/**
 * spec3 §2: a single click in network mode acts only after NETWORK_DOUBLE_CLICK_MS, so the clicks of a
 * double-click (which cancels the pending one) are not mistaken for it. A newer click replaces an older one.
 */
export const delayedClick = (delay: number = NETWORK_DOUBLE_CLICK_MS) => {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  const schedule = (action: () => void) => {
    cancel();
    timer = setTimeout(() => {
      timer = null;
      action();
    }, delay);
  };
  return { schedule, cancel };
};

/** delayedClick for a component; a click still pending when it unmounts never acts. */
export const useDelayedClick = (delay: number = NETWORK_DOUBLE_CLICK_MS) => {
  const clicks = useMemo(() => delayedClick(delay), [delay]);
  useEffect(() => clicks.cancel, [clicks]);
  return clicks;
};
