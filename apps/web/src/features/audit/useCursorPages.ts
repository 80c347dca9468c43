import { useCallback, useState } from 'react';

/**
 * Pages of a list read by cursor (newest first): the `before` of each page shown so far, so Newer goes back
 * exactly to the page it came from. Starting over (new filters) forgets them.
 */
export const useCursorPages = () => {
  const [cursors, setCursors] = useState<string[]>([]);
  const older = useCallback((next: string) => setCursors((shown) => [...shown, next]), []);
  const newer = useCallback(() => setCursors((shown) => shown.slice(0, -1)), []);
  const reset = useCallback(() => setCursors([]), []);
  return { before: cursors.at(-1), pageNumber: cursors.length + 1, older, newer, reset };
};
