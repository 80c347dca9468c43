import { Box, type BoxProps, Tooltip } from '@mantine/core';
import { ELLIPSIS_RESIZE_THROTTLE_MS, isTruncated } from '@media/contract';
import { type ReactNode, useEffect, useState } from 'react';

type Measured = { scrollWidth: number; clientWidth: number };

/**
 * Tells whether a text is cut after every resize, measuring at most once per throttle window (the first
 * resize at once, the last of a burst at the window's end). A ResizeObserver reports an element once when
 * it starts observing it, after layout: that first report is the first measure, so drawing a table of
 * cut texts forces no extra layout. Returns the stop function.
 */
export const watchTruncation = (
  element: Measured,
  onChange: (truncated: boolean) => void,
  subscribeResize: (listener: () => void) => () => void,
  throttleMs = ELLIPSIS_RESIZE_THROTTLE_MS,
) => {
  let truncated: boolean | undefined;
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const measure = () => {
    last = Date.now();
    const now = isTruncated(element);
    if (now === truncated) return;
    truncated = now;
    onChange(now);
  };
  const onResize = () => {
    if (timer !== undefined) return;
    const wait = last + throttleMs - Date.now();
    if (wait <= 0) measure();
    else
      timer = setTimeout(() => {
        timer = undefined;
        measure();
      }, wait);
  };
  const unsubscribe = subscribeResize(onResize);
  return () => {
    unsubscribe();
    if (timer !== undefined) clearTimeout(timer);
  };
};

/** One ResizeObserver for every cut text of the page: a table draws hundreds of them. */
const resizeListeners = new Map<Element, () => void>();
let sharedObserver: ResizeObserver | undefined;

/** The element's resizes: a column dragged wider, or a window that changes a fluid column's width. */
const resizesOf = (element: Element) => (listener: () => void) => {
  sharedObserver ??= new ResizeObserver((entries) => {
    for (const entry of entries) resizeListeners.get(entry.target)?.();
  });
  resizeListeners.set(element, listener);
  sharedObserver.observe(element);
  return () => {
    resizeListeners.delete(element);
    sharedObserver?.unobserve(element);
  };
};

/**
 * A one-line text that ends in an ellipsis when it does not fit, with its full text as a tooltip only
 * while it is cut (spec1 §9, spec3 §9: measured again on resize, throttled to 250 ms).
 */
export const Ellipsis = ({ children, ...rest }: { children: string } & BoxProps) => {
  // The element by state: a cut text is wrapped in its tooltip, which draws a new element to watch.
  const [element, setElement] = useState<HTMLSpanElement | null>(null);
  const [truncated, setTruncated] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new text is measured again
  useEffect(() => {
    if (!element) return;
    return watchTruncation(element, setTruncated, resizesOf(element));
  }, [element, children]);
  const text = (
    <Box
      component="span"
      ref={setElement}
      display="block"
      {...rest}
      style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 }}
      data-truncated={truncated || undefined}
    >
      {children}
    </Box>
  );
  // Only a cut text has a tooltip: a table of texts that fit draws no tooltip machinery at all.
  return truncated ? (
    <Tooltip label={children} multiline maw={480} style={{ overflowWrap: 'anywhere' }}>
      {text}
    </Tooltip>
  ) : (
    text
  );
};

/** A table cell's content: a text or a number is cut with an ellipsis, anything else is left as it is. */
export const ellipsisIfText = (content: ReactNode) =>
  typeof content === 'string' || typeof content === 'number' ? (
    <Ellipsis>{String(content)}</Ellipsis>
  ) : (
    content
  );
