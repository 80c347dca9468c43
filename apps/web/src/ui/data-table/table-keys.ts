import type { KeyboardEvent } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';
/** Controls whose own arrow keys move a caret or pick an option: the table leaves those keys to them. */
const OWNS_ARROWS = 'input:not([type="checkbox"]):not([type="radio"]), textarea, select, [role="combobox"]';

/**
 * ArrowDown/ArrowUp in a table's body: the focus moves to the same column of the next or previous row (the
 * row's first control where that cell has none), as the WAI-ARIA grid pattern moves between rows.
 */
export const moveFocusBetweenRows = (event: KeyboardEvent<HTMLElement>) => {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const target = event.target as HTMLElement;
  if (target.closest(OWNS_ARROWS)) return;
  const cell = target.closest('td');
  const row = cell?.closest<HTMLTableRowElement>('tr[data-row-id]');
  if (!cell || !row) return;
  const nextRow = (
    event.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling
  ) as HTMLTableRowElement | null;
  // The spacer rows of a virtual list have no id: the end of what is drawn.
  if (!nextRow?.dataset.rowId) return;
  const column = [...row.cells].indexOf(cell as HTMLTableCellElement);
  const into =
    nextRow.cells[column]?.querySelector<HTMLElement>(FOCUSABLE) ??
    nextRow.querySelector<HTMLElement>(FOCUSABLE);
  if (!into) return;
  event.preventDefault();
  into.focus();
};
