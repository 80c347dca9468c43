/** spec1 §9, spec3 §9: a cut text is measured again on resize, at most once every 250 ms. */
export const ELLIPSIS_RESIZE_THROTTLE_MS = 250;

/** A text is cut when its full width is wider than the box that shows it (sub-pixel rounding ignored). */
export const isTruncated = (box: { scrollWidth: number; clientWidth: number }) =>
  box.scrollWidth - box.clientWidth > 1;
