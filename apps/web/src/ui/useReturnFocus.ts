import { useEffect, useState } from 'react';

/**
 * For a dialog that is mounted open and unmounted to close: Mantine returns the focus only when `opened`
 * turns false, so the element that had the focus when the dialog mounted gets it back here.
 */
export const useReturnFocusOnUnmount = () => {
  const [opener] = useState(() =>
    typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null),
  );
  useEffect(
    () => () => {
      // After the focus trap has let go.
      setTimeout(() => {
        if (opener?.isConnected) opener.focus();
      }, 0);
    },
    [opener],
  );
};
