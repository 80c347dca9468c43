import { type DragEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { createStore, useStore } from '../../ui/store.ts';

/** The drag data type of media tree nodes: a JSON list of their API paths. */
export const NODE_DRAG_TYPE = 'application/x-media-nodes';

/** A node dragged from a selection drags the whole selection; any other node drags alone. */
export const draggedPaths = (path: string, selectedPaths: readonly string[]) =>
  selectedPaths.includes(path) ? [...selectedPaths] : [path];

/** The paths a drop carries, or none when it carries no nodes (a file, a text from elsewhere). */
export const droppedPaths = (data: Pick<DataTransfer, 'getData'>): string[] => {
  try {
    const paths: unknown = JSON.parse(data.getData(NODE_DRAG_TYPE) || '[]');
    return Array.isArray(paths) ? paths.filter((path): path is string => typeof path === 'string') : [];
  } catch {
    return [];
  }
};

/** Whether a drag carries nodes (its data can be read only on drop; its types always). */
export const carriesNodes = (data: Pick<DataTransfer, 'types'>) => [...data.types].includes(NODE_DRAG_TYPE);

/** How many nodes are being dragged in this page (0 when none): drop targets show themselves meanwhile. */
const draggingStore = createStore(0);
export const useDraggingNodes = () => useStore(draggingStore);

/**
 * What makes a node draggable onto a folder or a publishing button of the tree. The press does not start a
 * rectangle selection of the table around it (DragSelectArea) either.
 */
export const nodeDragProps = (path: string, selectedPaths: readonly string[]) => ({
  draggable: true,
  onPointerDown: (event: PointerEvent) => event.stopPropagation(),
  onDragStart: (event: DragEvent) => {
    const paths = draggedPaths(path, selectedPaths);
    event.dataTransfer.setData(NODE_DRAG_TYPE, JSON.stringify(paths));
    event.dataTransfer.setData('text/plain', paths.join('\n'));
    event.dataTransfer.effectAllowed = 'copyMove';
    draggingStore.set(paths.length);
  },
  onDragEnd: () => draggingStore.set(0),
});

/** A folder under a drag opens after this long (a spring-loaded folder), so a drop can go deeper. */
export const DRAG_OPEN_DELAY_MS = 700;

/**
 * What makes an element a drop target for nodes: `over` while nodes are dragged over it; `onOpen`, when
 * given, is called once they have stayed over it for DRAG_OPEN_DELAY_MS. Without onDrop it only opens.
 */
export const useNodeDropTarget = (
  onDrop: ((paths: string[]) => void) | undefined,
  options: { effect: 'move' | 'copy'; onOpen?: () => void },
) => {
  const [over, setOver] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const depth = useRef(0);
  const stopTimer = () => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
  };
  // No folder opens after the target is gone.
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const leave = () => {
    depth.current = 0;
    setOver(false);
    stopTimer();
  };
  if (!onDrop && !options.onOpen) return { over: false, props: {} };
  return {
    over,
    props: {
      onDragEnter: (event: DragEvent) => {
        if (!carriesNodes(event.dataTransfer)) return;
        if (onDrop) event.preventDefault();
        event.stopPropagation();
        depth.current += 1;
        if (onDrop) setOver(true);
        const { onOpen } = options;
        if (onOpen && timer.current === undefined)
          timer.current = window.setTimeout(() => {
            timer.current = undefined;
            onOpen();
          }, DRAG_OPEN_DELAY_MS);
      },
      onDragOver: (event: DragEvent) => {
        if (!onDrop || !carriesNodes(event.dataTransfer)) return;
        event.preventDefault();
        event.stopPropagation();
        event.dataTransfer.dropEffect = options.effect;
      },
      onDragLeave: (event: DragEvent) => {
        if (!carriesNodes(event.dataTransfer)) return;
        event.stopPropagation();
        depth.current -= 1;
        if (depth.current <= 0) leave();
      },
      onDrop: (event: DragEvent) => {
        const paths = droppedPaths(event.dataTransfer);
        if (!onDrop || paths.length === 0) return;
        event.preventDefault();
        event.stopPropagation();
        leave();
        draggingStore.set(0);
        onDrop(paths);
      },
    },
  };
};
