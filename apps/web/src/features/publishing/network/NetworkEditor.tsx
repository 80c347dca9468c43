import '@xyflow/react/dist/style.css';
import { List, Stack, Text, useComputedColorScheme } from '@mantine/core';
import {
  type Connection,
  checkNetwork,
  connectionRefusal,
  moduleDisplayName,
  NETWORK_NODE_BOX,
  type PublishModule,
  type PublishNetwork,
} from '@media/contract';
import {
  Background,
  Controls,
  type Edge,
  type FinalConnectionState,
  type Connection as FlowConnection,
  MarkerType,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from '@xyflow/react';
import {
  type CSSProperties,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type ModuleFlowNode, ModuleNode } from './ModuleNode.tsx';
import { NetworkLegend } from './NetworkLegend.tsx';
import { NetworkToolbar } from './NetworkToolbar.tsx';
import {
  addModuleNode,
  connect,
  connectionRefusalText,
  deleteNode,
  hiddenSourceNode,
  isRemovable,
  isStratified,
  layoutNetwork,
  nodeType,
  removeConnection,
} from './network-layout.ts';
import { useDelayedClick } from './useDelayedClick.ts';

export type NetworkEditorProps = {
  network: PublishNetwork;
  modules: readonly PublishModule[];
  onChange: (network: PublishNetwork, info: { stratified: boolean; problems: string[] }) => void;
  readOnly?: boolean;
  /** The card shows that node's options. */
  onSelectNode?: (nodeLocalId: number | null) => void;
};

type Selection = { kind: 'node'; id: number } | { kind: 'edge'; pair: Connection } | null;

const NODE_TYPES = { module: ModuleNode };
/** Never zoom in past 1, so node boxes show at their 100x50 size (spec3 §9). */
const FIT_VIEW = { padding: 0.2, maxZoom: 1 };
/** The graph on the page's own background, light or dark. */
const GRAPH_STYLE = { '--xy-background-color': 'var(--mantine-color-body)' } as CSSProperties;
/** What a screen reader says of a focused node or connection: the keys this editor answers. */
const ARIA_LABELS = {
  'node.a11yDescription.default':
    'Press Enter or Space to select a node and show its options, Delete to remove it, Escape to cancel.',
  'edge.a11yDescription.default':
    'Press Enter or Space to select a connection, then Delete to remove it or Escape to cancel.',
};
const READ_ONLY_ARIA_LABELS = {
  'node.a11yDescription.default': 'Press Enter or Space to select a node and show its options.',
  'edge.a11yDescription.default': 'Press Enter or Space to select a connection.',
};
const edgeId = ([from, to]: Connection) => `${from}-${to}`;
const pairOfEdge = (id: string): Connection => {
  const [from, to] = id.split('-').map(Number);
  return [from as number, to as number];
};

/**
 * spec3 §2 network mode of a publishing button: the phase's network drawn in four columns by module type,
 * edited by dragging from an output handle to an input handle (spec3 §4 connection rule), a palette and a
 * delete; the §5 problems are listed under the graph. A single click selects after the double-click delay.
 */
export const NetworkEditor = (props: NetworkEditorProps) => (
  <ReactFlowProvider>
    <NetworkEditorFlow {...props} />
  </ReactFlowProvider>
);

const NetworkEditorFlow = ({
  network,
  modules,
  onChange,
  readOnly = false,
  onSelectNode,
}: NetworkEditorProps) => {
  const [selection, setSelection] = useState<Selection>(null);
  const [message, setMessage] = useState<string | null>(null);
  const delayed = useDelayedClick();
  const { fitView } = useReactFlow();
  const colorMode = useComputedColorScheme('light');

  const hidden = hiddenSourceNode(network, modules);
  const hiddenIds = useMemo(() => new Set(hidden === null ? [] : [hidden]), [hidden]);
  const placements = useMemo(() => layoutNetwork(network, modules, hiddenIds), [network, modules, hiddenIds]);
  const problems = useMemo(() => checkNetwork(network, modules), [network, modules]);
  const nameOf = useCallback(
    (id: number) => {
      const node = network.nodes.find((candidate) => candidate.nodeLocalId === id);
      return node ? moduleDisplayName(node.moduleId, modules) : String(id);
    },
    [network, modules],
  );

  const destinationOf = (graph: PublishNetwork, source: number) => {
    const pair = graph.connections.find(([from]) => from === source);
    return pair ? nameOf(pair[1]) : null;
  };

  // A selection the network no longer has (changed from outside) is dropped.
  const selected: Selection =
    selection?.kind === 'node' && network.nodes.some((node) => node.nodeLocalId === selection.id)
      ? selection
      : selection?.kind === 'edge' &&
          network.connections.some(([a, b]) => a === selection.pair[0] && b === selection.pair[1])
        ? selection
        : null;

  const select = useCallback(
    (next: Selection) => {
      setSelection(next);
      onSelectNode?.(next?.kind === 'node' ? next.id : null);
    },
    [onSelectNode],
  );

  const emit = (next: PublishNetwork) =>
    onChange(next, { stratified: isStratified(next, modules), problems: checkNetwork(next, modules) });

  const drawn: ModuleFlowNode[] = placements.map((place) => {
    const node = network.nodes.find((candidate) => candidate.nodeLocalId === place.nodeLocalId);
    const type = node ? nodeType(modules, node) : null;
    const label = nameOf(place.nodeLocalId);
    return {
      id: String(place.nodeLocalId),
      type: 'module',
      position: { x: place.x, y: place.y },
      width: NETWORK_NODE_BOX.width,
      height: NETWORK_NODE_BOX.height,
      selected: selected?.kind === 'node' && selected.id === place.nodeLocalId,
      ariaLabel: `${label} node ${place.nodeLocalId}`,
      data: { label, type, hasInput: type !== 'source', hasOutput: type !== 'post' },
    };
  });
  // React Flow measures a node again whenever its object changes (its links vanish meanwhile): unchanged
  // nodes keep the object they had.
  const nodeCache = useRef(new Map<string, ModuleFlowNode>());
  const nodes = drawn.map((node) => {
    const cached = nodeCache.current.get(node.id);
    return cached && JSON.stringify(cached) === JSON.stringify(node) ? cached : node;
  });
  nodeCache.current = new Map(nodes.map((node) => [node.id, node]));
  const shownIds = new Set(placements.map((place) => place.nodeLocalId));
  const edges: Edge[] = network.connections
    // A hanging connection has no end to draw; the problems list names it.
    .filter(([from, to]) => shownIds.has(from) && shownIds.has(to))
    .map((pair) => ({
      id: edgeId(pair),
      source: String(pair[0]),
      target: String(pair[1]),
      selected: selected?.kind === 'edge' && edgeId(selected.pair) === edgeId(pair),
      markerEnd: { type: MarkerType.ArrowClosed },
      ariaLabel: `Connection from ${nameOf(pair[0])} to ${nameOf(pair[1])}`,
    }));

  const shownCount = nodes.length;
  useEffect(() => {
    // Keep every node in view as nodes come and go.
    if (shownCount > 0) void fitView(FIT_VIEW);
  }, [shownCount, fitView]);

  const tryConnect = (pair: Connection) => {
    const result = connect(network, pair, modules);
    setMessage(result.refusal);
    if (result.refusal === null) emit(result.network);
  };

  const flowPair = (connection: FlowConnection | Edge): Connection => [
    Number(connection.source),
    Number(connection.target),
  ];

  const onConnectEnd = (_event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
    // A drop on a handle the rule refused: say why.
    if (state.isValid || !state.fromNode || !state.toNode || !state.fromHandle) return;
    const ends = [Number(state.fromNode.id), Number(state.toNode.id)];
    const pair = (state.fromHandle.type === 'source' ? ends : ends.reverse()) as Connection;
    setMessage(connectionRefusalText(network, pair, modules));
  };

  const deletable =
    readOnly || selected === null
      ? null
      : selected.kind === 'edge'
        ? selected
        : isRemovable(network, modules, selected.id)
          ? selected
          : null;

  const deleteSelection = () => {
    if (deletable === null) return;
    setMessage(null);
    select(null);
    emit(
      deletable.kind === 'edge'
        ? removeConnection(network, deletable.pair)
        : deleteNode(network, deletable.id, modules),
    );
  };

  const addModule = (moduleId: string) => {
    const added = addModuleNode(network, moduleId, modules);
    setMessage(null);
    emit(added.network);
    select({ kind: 'node', id: added.nodeLocalId });
  };

  // Keyboard: Enter or Space on a focused node or connection selects it at once, Escape clears, Delete removes.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as Element;
    if (target.closest('input, textarea, select')) return;
    if (event.key === 'Delete' || event.key === 'Backspace') {
      if (deletable !== null) {
        event.preventDefault();
        deleteSelection();
      }
      return;
    }
    if (event.key === 'Escape') {
      delayed.cancel();
      select(null);
      return;
    }
    if (event.key !== 'Enter' && event.key !== ' ') return;
    const nodeId = target.closest('.react-flow__node')?.getAttribute('data-id');
    const edge = target.closest('.react-flow__edge')?.getAttribute('data-id');
    if (nodeId == null && edge == null) return;
    event.preventDefault();
    delayed.cancel();
    select(
      nodeId != null
        ? { kind: 'node', id: Number(nodeId) }
        : { kind: 'edge', pair: pairOfEdge(edge as string) },
    );
  };

  const deleteLabel =
    deletable === null ? null : deletable.kind === 'edge' ? 'Delete connection' : 'Delete node';

  return (
    <Stack gap="xs" data-testid="network-editor">
      {!readOnly && (
        <NetworkToolbar
          network={network}
          modules={modules}
          shownIds={[...shownIds]}
          deleteLabel={deleteLabel}
          onAdd={addModule}
          onConnect={tryConnect}
          onDelete={deleteSelection}
        />
      )}
      <div
        style={{
          height: 300,
          width: '100%',
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 4,
        }}
      >
        <ReactFlow<ModuleFlowNode, Edge>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          aria-label="Publishing network"
          colorMode={colorMode}
          ariaLabelConfig={readOnly ? READ_ONLY_ARIA_LABELS : ARIA_LABELS}
          style={GRAPH_STYLE}
          fitView
          fitViewOptions={FIT_VIEW}
          minZoom={0.3}
          maxZoom={2}
          nodesDraggable={false}
          nodesConnectable={!readOnly}
          elementsSelectable={false}
          nodesFocusable
          edgesFocusable
          zoomOnDoubleClick={false}
          deleteKeyCode={null}
          selectionKeyCode={null}
          multiSelectionKeyCode={null}
          isValidConnection={(connection) =>
            connectionRefusal(network, flowPair(connection), modules) === null
          }
          onConnect={(connection) => tryConnect(flowPair(connection))}
          onConnectEnd={onConnectEnd}
          onNodeClick={(_event, node) =>
            delayed.schedule(() => select({ kind: 'node', id: Number(node.id) }))
          }
          onEdgeClick={(_event, edge) =>
            delayed.schedule(() => select({ kind: 'edge', pair: pairOfEdge(edge.id) }))
          }
          onPaneClick={() => delayed.schedule(() => select(null))}
          // The double-click itself is left to the page (it bubbles); only the pending single click is dropped.
          onNodeDoubleClick={delayed.cancel}
          onEdgeDoubleClick={delayed.cancel}
          onDoubleClick={delayed.cancel}
          onKeyDown={onKeyDown}
        >
          <Background gap={20} />
          <Controls showInteractive={false} fitViewOptions={FIT_VIEW} />
        </ReactFlow>
      </div>
      <NetworkLegend />
      {hidden !== null && (
        <Text size="sm" c="dimmed" data-testid="network-hidden-source">
          {`${nameOf(hidden)} is hidden while no processing node feeds ${
            destinationOf(network, hidden) ?? 'the destination'
          }; adding a processing node brings it back.`}
        </Text>
      )}
      {message !== null && (
        <Text size="sm" c="red" role="status" data-testid="network-refusal">
          {message}
        </Text>
      )}
      {problems.length > 0 && (
        <List size="sm" c="red" aria-label="Network problems" data-testid="network-editor-problems">
          {problems.map((problem, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same problem can be listed twice
            <List.Item key={index}>{problem}</List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
};
