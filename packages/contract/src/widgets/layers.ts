/**
 * spec3 §9: a modal's backdrop is at z-index 1040 and its window at 1050. What opens from a modal
 * (dropdowns, menus, tooltips) and the toasts sit above both, so nothing a modal shows is hidden by it.
 */
export const LAYERS = {
  modalBackdrop: 1040,
  modalWindow: 1050,
  /**
   * Confirmations and prompts (the modals manager) open over other modals: one above, as Mantine does, since
   * the manager's portal is older than a page's and would otherwise paint below one of the same z-index.
   */
  stackedModalBackdrop: 1041,
  stackedModalWindow: 1051,
  popover: 1060,
  tooltip: 1070,
  toast: 1100,
} as const;
