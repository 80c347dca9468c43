/** What a key does on a folder of the tree (the WAI-ARIA tree pattern). */
export type TreeKeyAction = 'next' | 'previous' | 'expand' | 'collapse' | 'firstChild' | 'parent' | 'select';

export const treeKeyAction = (
  key: string,
  folder: { expandable: boolean; expanded: boolean },
): TreeKeyAction | null => {
  switch (key) {
    case 'ArrowDown':
      return 'next';
    case 'ArrowUp':
      return 'previous';
    case 'ArrowRight':
      if (!folder.expandable) return null;
      return folder.expanded ? 'firstChild' : 'expand';
    case 'ArrowLeft':
      return folder.expanded ? 'collapse' : 'parent';
    case 'Enter':
    case ' ':
      return 'select';
    default:
      return null;
  }
};
