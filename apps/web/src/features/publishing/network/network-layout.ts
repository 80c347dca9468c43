import {
  acceptsInput,
  type Connection,
  connectionRefusal,
  DESTINATION_NODE_ID,
  defaultOptions,
  moduleDisplayName,
  NETWORK_GRAPH_COLUMNS,
  NETWORK_NODE_BOX,
  type NetworkNode,
  PUBLISH_MESSAGES,
  type PublishModule,
  type PublishModuleType,
  type PublishNetwork,
  SOURCE_NODE_ID,
} from '@media/contract';

type ModuleList = readonly PublishModule[];

/** Space between two columns and two rows of node boxes (spec3 §9 gives only the box, 100x50). */
export const COLUMN_GAP = 80;
export const ROW_GAP = 30;

const moduleOf = (modules: ModuleList, node: NetworkNode) =>
  modules.find((candidate) => candidate.id === node.moduleId);

/** The module type of a node; an unknown module has none. */
export const nodeType = (modules: ModuleList, node: NetworkNode): PublishModuleType | null =>
  moduleOf(modules, node)?.type ?? null;

/** spec3 §9: one column per module type; an unknown module is drawn with the process nodes. */
export const columnOf = (type: PublishModuleType | null) =>
  type === null ? NETWORK_GRAPH_COLUMNS.indexOf('process') : NETWORK_GRAPH_COLUMNS.indexOf(type);

export type NodePlacement = { nodeLocalId: number; column: number; row: number; x: number; y: number };

/**
 * Places each shown node in its module type's column, ordered by id within the column; shorter columns are
 * centred on the tallest so a lone source or destination sits level with the middle of the process nodes.
 */
export const layoutNetwork = (
  network: PublishNetwork,
  modules: ModuleList,
  hidden: ReadonlySet<number> = new Set(),
): NodePlacement[] => {
  const columns: NetworkNode[][] = NETWORK_GRAPH_COLUMNS.map(() => []);
  const shown = network.nodes
    .filter((node) => !hidden.has(node.nodeLocalId))
    .sort((a, b) => a.nodeLocalId - b.nodeLocalId);
  for (const node of shown) columns[columnOf(nodeType(modules, node))]?.push(node);
  const tallest = Math.max(1, ...columns.map((column) => column.length));
  const rowStep = NETWORK_NODE_BOX.height + ROW_GAP;
  const columnStep = NETWORK_NODE_BOX.width + COLUMN_GAP;
  return columns.flatMap((column, columnIndex) =>
    column.map((node, row) => ({
      nodeLocalId: node.nodeLocalId,
      column: columnIndex,
      row,
      x: columnIndex * columnStep,
      y: ((tallest - column.length) / 2 + row) * rowStep,
    })),
  );
};

const idsOfType = (network: PublishNetwork, modules: ModuleList, type: PublishModuleType) =>
  network.nodes.filter((node) => nodeType(modules, node) === type).map((node) => node.nodeLocalId);

/** The network's main source: node 0 when it is a source, else the first source node. */
export const mainSourceId = (network: PublishNetwork, modules: ModuleList): number | null => {
  const sources = idsOfType(network, modules, 'source');
  return sources.includes(SOURCE_NODE_ID) ? SOURCE_NODE_ID : (sources[0] ?? null);
};

/** The network's main destination: node 1 when it is a destination, else the first destination node. */
export const mainDestinationId = (network: PublishNetwork, modules: ModuleList): number | null => {
  const destinations = idsOfType(network, modules, 'destination');
  return destinations.includes(DESTINATION_NODE_ID) ? DESTINATION_NODE_ID : (destinations[0] ?? null);
};

/** The editor never deletes the main source or the main destination. */
export const isRemovable = (network: PublishNetwork, modules: ModuleList, nodeLocalId: number) =>
  network.nodes.some((node) => node.nodeLocalId === nodeLocalId) &&
  nodeLocalId !== mainSourceId(network, modules) &&
  nodeLocalId !== mainDestinationId(network, modules);

const samePair = (a: Connection, b: Connection) => a[0] === b[0] && a[1] === b[1];

/**
 * Stratified: the network is exactly one source → process nodes → one destination, each process node fed
 * only by the source and feeding only the destination (or, with no process node, the source feeding the
 * destination directly), so the card's simple Source Processing / Destination selects still describe it.
 * Every stratified connection goes from a lower column to a higher one.
 */
export const isStratified = (network: PublishNetwork, modules: ModuleList) => {
  const sources = idsOfType(network, modules, 'source');
  const processes = idsOfType(network, modules, 'process');
  const destinations = idsOfType(network, modules, 'destination');
  if (sources.length !== 1 || destinations.length !== 1) return false;
  if (sources.length + processes.length + destinations.length !== network.nodes.length) return false;
  const [source, destination] = [sources[0] as number, destinations[0] as number];
  const expected: Connection[] =
    processes.length === 0
      ? [[source, destination]]
      : processes.flatMap((id): Connection[] => [
          [source, id],
          [id, destination],
        ]);
  return (
    network.connections.length === expected.length &&
    expected.every((pair) => network.connections.some((connection) => samePair(connection, pair)))
  );
};

/** The phase's primaryNetwork of a stratified network (its destination and process nodes). */
export const primaryNetworkOf = (network: PublishNetwork, modules: ModuleList) => ({
  destinationNode: mainDestinationId(network, modules) ?? DESTINATION_NODE_ID,
  processNodes: idsOfType(network, modules, 'process'),
});

/**
 * spec3 §4 hidden source node. With no process node left, the source is kept (node 0, its place in the
 * network) but hidden: it feeds the destination directly and the graph does not draw it or its links. It
 * comes back into view, fed through the new node, when a process node is added. Answers the id to hide.
 */
export const hiddenSourceNode = (network: PublishNetwork, modules: ModuleList): number | null => {
  const source = mainSourceId(network, modules);
  if (source === null || idsOfType(network, modules, 'process').length > 0) return null;
  const outgoing = network.connections.filter(([from]) => from === source);
  const feedsOnlyDestinations = outgoing.every(([, to]) => {
    const target = network.nodes.find((node) => node.nodeLocalId === to);
    return target !== undefined && nodeType(modules, target) === 'destination';
  });
  const fedByNothing = !network.connections.some(([, to]) => to === source);
  return outgoing.length > 0 && feedsOnlyDestinations && fedByNothing ? source : null;
};

/** The smallest id no node uses yet. */
export const nextNodeLocalId = (network: PublishNetwork) => {
  const used = new Set(network.nodes.map((node) => node.nodeLocalId));
  let id = 0;
  while (used.has(id)) id += 1;
  return id;
};

/** Adds a node of a module, with its default options and the next free id, unconnected. */
export const addNode = (network: PublishNetwork, moduleId: string, modules: ModuleList) => {
  const module = modules.find((candidate) => candidate.id === moduleId);
  const nodeLocalId = nextNodeLocalId(network);
  const node: NetworkNode = { nodeLocalId, moduleId, options: module ? defaultOptions(module) : {} };
  return { network: { ...network, nodes: [...network.nodes, node] }, nodeLocalId };
};

/** Removes a node and every connection to or from it. */
export const removeNode = (network: PublishNetwork, nodeLocalId: number): PublishNetwork => ({
  nodes: network.nodes.filter((node) => node.nodeLocalId !== nodeLocalId),
  connections: network.connections.filter(([from, to]) => from !== nodeLocalId && to !== nodeLocalId),
});

/**
 * The editor's delete of a node: removing the last process node of a stratified network leaves the source
 * feeding the destination directly, hidden (spec3 §4, as setProcessNodes with no process node).
 */
export const deleteNode = (network: PublishNetwork, nodeLocalId: number, modules: ModuleList) => {
  const next = removeNode(network, nodeLocalId);
  const source = mainSourceId(next, modules);
  const destination = mainDestinationId(next, modules);
  if (!isStratified(network, modules) || idsOfType(next, modules, 'process').length > 0) return next;
  if (source === null || destination === null) return next;
  return { ...next, connections: [...next.connections, [source, destination] as Connection] };
};

/**
 * The editor's add of a module node: a process node added while the source is hidden is wired
 * source → node → destination when both modules accept those links, which brings the source back into
 * view; any other node comes unconnected (a process node shows the source again too).
 */
export const addModuleNode = (network: PublishNetwork, moduleId: string, modules: ModuleList) => {
  const module = modules.find((candidate) => candidate.id === moduleId);
  const moduleAt = (id: number | null) => {
    const node = network.nodes.find((candidate) => candidate.nodeLocalId === id);
    return node ? moduleOf(modules, node) : undefined;
  };
  const source = moduleAt(mainSourceId(network, modules));
  const destination = moduleAt(mainDestinationId(network, modules));
  const fits =
    module !== undefined &&
    source !== undefined &&
    destination !== undefined &&
    acceptsInput(module, source) &&
    acceptsInput(destination, module);
  if (module?.type === 'process' && fits && hiddenSourceNode(network, modules) !== null) {
    const nodeLocalId = nextNodeLocalId(network);
    return { network: setProcessNodes(network, [moduleId], modules), nodeLocalId };
  }
  return addNode(network, moduleId, modules);
};

export const removeConnection = (network: PublishNetwork, pair: Connection): PublishNetwork => ({
  ...network,
  connections: network.connections.filter((connection) => !samePair(connection, pair)),
});

/**
 * spec3 §4 Connections: adds the pair when the contract's rule allows it, else answers a short reason.
 */
export const connect = (
  network: PublishNetwork,
  pair: Connection,
  modules: ModuleList,
): { network: PublishNetwork; refusal: string | null } => {
  const refusal = connectionRefusalText(network, pair, modules);
  if (refusal !== null) return { network, refusal };
  return { network: { ...network, connections: [...network.connections, pair] }, refusal: null };
};

/** The refusal of a connection as a short text, or null when it is allowed. */
export const connectionRefusalText = (
  network: PublishNetwork,
  [from, to]: Connection,
  modules: ModuleList,
): string | null => {
  const name = (id: number) => {
    const node = network.nodes.find((candidate) => candidate.nodeLocalId === id);
    return node ? moduleDisplayName(node.moduleId, modules) : PUBLISH_MESSAGES.unknownModule;
  };
  switch (connectionRefusal(network, [from, to], modules)) {
    case null:
      return null;
    case 'self':
      return 'A node cannot be connected to itself';
    case 'into-output':
      return `${name(to)} takes no inputs`;
    case 'duplicate':
      return 'These nodes are already connected';
    case 'incompatible':
      return PUBLISH_MESSAGES.cannotConnect(name(from), name(to));
    case 'no-free-input':
      return `${name(to)} has no free input`;
    case 'missing':
      return PUBLISH_MESSAGES.hangingConnection(`${from}-${to}`);
  }
};

/**
 * Replaces the process nodes of a network (the card's Source Processing select): a node kept for a module
 * still chosen keeps its id and options; each process node is fed by the main source and feeds the main
 * destination; other nodes (post nodes) and their links stay. With no process node the source feeds the
 * destination directly and is hidden (see hiddenSourceNode); choosing a process node again brings it back,
 * adding a source node first if the network had none.
 */
export const setProcessNodes = (
  network: PublishNetwork,
  processModuleIds: readonly string[],
  modules: ModuleList,
): PublishNetwork => {
  let next = network;
  if (mainSourceId(next, modules) === null) {
    const sourceModule = modules.find((candidate) => candidate.type === 'source');
    if (sourceModule) {
      const nodeLocalId = next.nodes.some((node) => node.nodeLocalId === SOURCE_NODE_ID)
        ? nextNodeLocalId(next)
        : SOURCE_NODE_ID;
      next = { ...next, nodes: [...next.nodes, { nodeLocalId, moduleId: sourceModule.id, options: {} }] };
    }
  }
  const source = mainSourceId(next, modules);
  const destination = mainDestinationId(next, modules);
  const oldProcesses = next.nodes.filter((node) => nodeType(modules, node) === 'process');
  const kept: NetworkNode[] = [];
  const remaining = [...oldProcesses];
  for (const moduleId of processModuleIds) {
    const index = remaining.findIndex((node) => node.moduleId === moduleId);
    if (index >= 0) kept.push(...remaining.splice(index, 1));
  }
  for (const node of remaining) next = removeNode(next, node.nodeLocalId);
  const keptIds = new Set(kept.map((node) => node.nodeLocalId));
  // Rewire the kept process nodes from scratch: fed only by the source, feeding only the destination.
  next = {
    ...next,
    connections: next.connections.filter(
      ([from, to]) => !keptIds.has(from) && !keptIds.has(to) && !(from === source && to === destination),
    ),
  };
  const processIds: number[] = [];
  const unusedKept = [...kept];
  for (const moduleId of processModuleIds) {
    const index = unusedKept.findIndex((node) => node.moduleId === moduleId);
    if (index >= 0) {
      processIds.push((unusedKept.splice(index, 1)[0] as NetworkNode).nodeLocalId);
      continue;
    }
    const added = addNode(next, moduleId, modules);
    next = added.network;
    processIds.push(added.nodeLocalId);
  }
  if (source === null || destination === null) return next;
  const links: Connection[] =
    processIds.length === 0
      ? [[source, destination]]
      : processIds.flatMap((id): Connection[] => [
          [source, id],
          [id, destination],
        ]);
  return { ...next, connections: [...next.connections, ...links] };
};
