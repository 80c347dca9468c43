/** spec1 §9: a drag selection starts after a 100 ms press and 5 px of movement; moves are throttled to 100 ms. */
export const DRAG_MIN_DISTANCE_PX = 5;
export const DRAG_PRESS_MS = 100;
export const DRAG_MOVE_THROTTLE_MS = 100;

export type Point = { x: number; y: number };
export type Rect = { left: number; top: number; right: number; bottom: number };

/** The rectangle between the press and the pointer, whichever way the pointer went. */
export const selectionRect = (start: Point, current: Point): Rect => ({
  left: Math.min(start.x, current.x),
  top: Math.min(start.y, current.y),
  right: Math.max(start.x, current.x),
  bottom: Math.max(start.y, current.y),
});

export const dragStarted = (start: Point, current: Point, pressedMs: number) =>
  pressedMs >= DRAG_PRESS_MS && Math.hypot(current.x - start.x, current.y - start.y) >= DRAG_MIN_DISTANCE_PX;

export const intersects = (a: Rect, b: Rect) =>
  a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;
