/**
 * spec3 §9: a table's scrolling body is the window's height less 200 px, and its sidebar (the strip of
 * selection checkboxes at the start of every row) is 50 px wide.
 */
export const TABLE_HEIGHT_OFFSET = 200;
export const TABLE_SIDEBAR_WIDTH = 50;
/** Below this the body would show hardly a row; a very short window scrolls the page instead. */
export const TABLE_MIN_HEIGHT = 160;

/** The height of a table's scrolling body in a window of the given height. */
export const tableScrollHeight = (windowHeight: number) =>
  Math.max(TABLE_MIN_HEIGHT, Math.floor(windowHeight) - TABLE_HEIGHT_OFFSET);
