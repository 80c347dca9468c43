import {
  DRAG_MOVE_THROTTLE_MS,
  dragStarted,
  intersects,
  type Point,
  type Rect,
  selectionRect,
} from '@media/contract';
import { type ReactNode, useRef, useState } from 'react';

type Props = {
  children: ReactNode;
  /** A disabled area is only its children. */
  disabled?: boolean;
  /** Elements that can be selected carry `data-select-id`. */
  onSelect: (ids: string[]) => void;
};

/** Rectangle selection (spec1 §2): starts after a 100 ms press and 5 px of movement; moves throttled to 100 ms. */
export const DragSelectArea = ({ children, onSelect, disabled }: Props) => {
  const area = useRef<HTMLDivElement>(null);
  const press = useRef<{ start: Point; at: number; lastMove: number } | null>(null);
  const [rect, setRect] = useState<Rect | null>(null);

  const local = (event: React.PointerEvent): Point => {
    const box = area.current?.getBoundingClientRect();
    return { x: event.clientX - (box?.left ?? 0), y: event.clientY - (box?.top ?? 0) };
  };

  const selectedIds = (selection: Rect) => {
    const box = area.current?.getBoundingClientRect();
    if (!area.current || !box) return [];
    return [...area.current.querySelectorAll<HTMLElement>('[data-select-id]')]
      .filter((element) => {
        const r = element.getBoundingClientRect();
        return intersects(selection, {
          left: r.left - box.left,
          top: r.top - box.top,
          right: r.right - box.left,
          bottom: r.bottom - box.top,
        });
      })
      .map((element) => element.dataset.selectId as string);
  };

  if (disabled) return children;
  return (
    <div
      ref={area}
      style={{ position: 'relative', userSelect: rect ? 'none' : undefined }}
      onPointerDown={(event) => {
        if (event.button !== 0) return;
        press.current = { start: local(event), at: performance.now(), lastMove: 0 };
      }}
      onPointerMove={(event) => {
        const current = press.current;
        if (!current) return;
        const now = performance.now();
        if (now - current.lastMove < DRAG_MOVE_THROTTLE_MS) return;
        const point = local(event);
        if (!rect && !dragStarted(current.start, point, now - current.at)) return;
        current.lastMove = now;
        const next = selectionRect(current.start, point);
        setRect(next);
        onSelect(selectedIds(next));
      }}
      onPointerUp={() => {
        press.current = null;
        setRect(null);
      }}
      onPointerLeave={() => {
        press.current = null;
        setRect(null);
      }}
    >
      {children}
      {rect && (
        <div
          data-testid="drag-select-rect"
          style={{
            position: 'absolute',
            left: rect.left,
            top: rect.top,
            width: rect.right - rect.left,
            height: rect.bottom - rect.top,
            border: '1px solid var(--mantine-primary-color-filled)',
            background: 'var(--mantine-primary-color-light)',
            pointerEvents: 'none',
          }}
        />
      )}
    </div>
  );
};
