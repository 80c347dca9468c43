import {
  checkNetwork,
  NETWORK_NODE_BOX,
  newButtonBody,
  PUBLISH_MESSAGES,
  PUBLISH_MODULES,
  type PublishNetwork,
} from '@media/contract';
import { describe, expect, it } from 'vitest';
import {
  addModuleNode,
  addNode,
  COLUMN_GAP,
  connect,
  deleteNode,
  hiddenSourceNode,
  isRemovable,
  isStratified,
  layoutNetwork,
  nextNodeLocalId,
  primaryNetworkOf,
  removeConnection,
  removeNode,
  setProcessNodes,
} from './network-layout.ts';

const modules = PUBLISH_MODULES;
/** Node 0 Media source → node 2 As is → node 1 Folder export. */
const simple = (): PublishNetwork =>
  structuredClone(
    newButtonBody({ name: 'B', processModuleId: 'as-is', destinationModuleId: 'folder-export' }, modules)
      .phases[0]?.phase.network as PublishNetwork,
  );

describe('layoutNetwork', () => {
  it('puts each node in the column of its module type (source, process, destination, post)', () => {
    const withPost = addNode(simple(), 'email-notify', modules).network;
    const placed = layoutNetwork(withPost, modules);
    const columnOf = (id: number) => placed.find((place) => place.nodeLocalId === id)?.column;
    expect([columnOf(0), columnOf(2), columnOf(1), columnOf(3)]).toEqual([0, 1, 2, 3]);
    expect(placed.find((place) => place.nodeLocalId === 3)?.x).toBe(
      3 * (NETWORK_NODE_BOX.width + COLUMN_GAP),
    );
  });

  it('stacks nodes of one column in rows by id and centres shorter columns', () => {
    const two = addNode(simple(), 'transcode', modules).network;
    const placed = layoutNetwork(two, modules);
    const at = (id: number) => placed.find((place) => place.nodeLocalId === id);
    expect(at(2)?.row).toBe(0);
    expect(at(3)?.row).toBe(1);
    expect(at(3)?.y).toBeGreaterThan(at(2)?.y as number);
    expect(at(0)?.y).toBe(((at(2)?.y as number) + (at(3)?.y as number)) / 2);
  });

  it('draws an unknown module with the process nodes and leaves hidden nodes out', () => {
    const network = simple();
    network.nodes.push({ nodeLocalId: 3, moduleId: 'gone', options: {} });
    const placed = layoutNetwork(network, modules, new Set([0]));
    expect(placed.find((place) => place.nodeLocalId === 3)?.column).toBe(1);
    expect(placed.some((place) => place.nodeLocalId === 0)).toBe(false);
  });
});

describe('isStratified', () => {
  it('holds for a new button and for several process nodes between source and destination', () => {
    expect(isStratified(simple(), modules)).toBe(true);
    expect(isStratified(setProcessNodes(simple(), ['as-is', 'transcode'], modules), modules)).toBe(true);
  });

  it('fails for a process chain, a post node, a second destination or a missing link', () => {
    const chained = simple();
    chained.nodes.push({ nodeLocalId: 3, moduleId: 'transcode', options: {} });
    chained.connections = [
      [0, 3],
      [3, 2],
      [2, 1],
    ];
    expect(isStratified(chained, modules)).toBe(false);
    const withPost = addNode(simple(), 'email-notify', modules);
    expect(isStratified(connect(withPost.network, [1, 3], modules).network, modules)).toBe(false);
    expect(isStratified(addNode(simple(), 'ftp', modules).network, modules)).toBe(false);
    expect(isStratified(removeConnection(simple(), [2, 1]), modules)).toBe(false);
  });
});

describe('hidden source node (spec3 §4)', () => {
  it('is hidden when no process node remains: the destination is fed by the source directly', () => {
    const bare = setProcessNodes(simple(), [], modules);
    expect(bare.nodes.map((node) => node.nodeLocalId).sort()).toEqual([0, 1]);
    expect(bare.connections).toEqual([[0, 1]]);
    expect(hiddenSourceNode(bare, modules)).toBe(0);
    expect(isStratified(bare, modules)).toBe(true);
    expect(hiddenSourceNode(simple(), modules)).toBeNull();
  });

  it('comes back fed through the new node when a process node is added', () => {
    const back = setProcessNodes(setProcessNodes(simple(), [], modules), ['transcode'], modules);
    expect(hiddenSourceNode(back, modules)).toBeNull();
    expect(back.connections).toEqual([
      [0, 2],
      [2, 1],
    ]);
    expect(checkNetwork(back, modules)).toEqual([]);
  });

  it('is added when the network had no source node', () => {
    const sourceless = removeNode(simple(), 0);
    const fixed = setProcessNodes(sourceless, ['as-is'], modules);
    expect(fixed.nodes.find((node) => node.nodeLocalId === 0)?.moduleId).toBe('source-media');
    expect(isStratified(fixed, modules)).toBe(true);
  });
});

describe('editor add and delete keep the hidden source rule', () => {
  it('deleting the last process node hides the source; adding one brings it back', () => {
    const bare = deleteNode(simple(), 2, modules);
    expect(bare.connections).toEqual([[0, 1]]);
    expect(hiddenSourceNode(bare, modules)).toBe(0);
    const back = addModuleNode(bare, 'watermark', modules);
    expect(back.nodeLocalId).toBe(2);
    expect(back.network.connections).toEqual([
      [0, 2],
      [2, 1],
    ]);
    expect(hiddenSourceNode(back.network, modules)).toBeNull();
  });

  it('adds a process node the destination does not accept unconnected, and shows the source again', () => {
    const webhook = setProcessNodes(
      structuredClone(
        newButtonBody({ name: 'W', processModuleId: 'as-is', destinationModuleId: 'webhook' }, modules)
          .phases[0]?.phase.network as PublishNetwork,
      ),
      [],
      modules,
    );
    const added = addModuleNode(webhook, 'watermark', modules);
    expect(added.network.connections).toEqual([[0, 1]]);
    expect(hiddenSourceNode(added.network, modules)).toBeNull();
  });

  it('leaves a network that is not stratified as the user drew it', () => {
    const two = connect(addNode(simple(), 'transcode', modules).network, [0, 3], modules).network;
    expect(deleteNode(two, 2, modules).connections).toEqual([[0, 3]]);
    expect(addModuleNode(simple(), 'transcode', modules).network.connections).toEqual(simple().connections);
  });
});

describe('setProcessNodes', () => {
  it('keeps a process node still chosen with its id and options, and drops the others', () => {
    const network = simple();
    const asIs = network.nodes.find((node) => node.nodeLocalId === 2);
    if (asIs) asIs.options = { kept: true };
    const next = setProcessNodes(network, ['transcode', 'as-is'], modules);
    expect(next.nodes.find((node) => node.nodeLocalId === 2)?.options).toEqual({ kept: true });
    expect(next.nodes.find((node) => node.nodeLocalId === 3)?.options).toEqual({
      format: 'mp4',
      videoBitrate: 5000,
    });
    expect(primaryNetworkOf(next, modules)).toEqual({ destinationNode: 1, processNodes: [2, 3] });
    const replaced = setProcessNodes(next, ['watermark'], modules);
    expect(replaced.nodes.map((node) => node.moduleId)).toEqual([
      'source-media',
      'folder-export',
      'watermark',
    ]);
    expect(isStratified(replaced, modules)).toBe(true);
  });
});

describe('editing', () => {
  it('adds a node with the next free id and its default options', () => {
    const network = removeNode(simple(), 2);
    expect(nextNodeLocalId(network)).toBe(2);
    const added = addNode(network, 'transcode', modules);
    expect(added.nodeLocalId).toBe(2);
    expect(added.network.nodes.at(-1)).toEqual({
      nodeLocalId: 2,
      moduleId: 'transcode',
      options: { format: 'mp4', videoBitrate: 5000 },
    });
  });

  it('removes a node with its connections, never the main source or destination', () => {
    const network = simple();
    expect(removeNode(network, 2)).toEqual({
      nodes: network.nodes.filter((node) => node.nodeLocalId !== 2),
      connections: [],
    });
    expect([isRemovable(network, modules, 0), isRemovable(network, modules, 1)]).toEqual([false, false]);
    expect(isRemovable(network, modules, 2)).toBe(true);
    expect(isRemovable(addNode(network, 'ftp', modules).network, modules, 3)).toBe(true);
  });

  it('connects a compatible pair and refuses the others with a short text', () => {
    const base = addNode(addNode(simple(), 'transcode', modules).network, 'email-notify', modules).network;
    const ok = connect(base, [0, 3], modules);
    expect(ok.refusal).toBeNull();
    expect(ok.network.connections).toContainEqual([0, 3]);
    expect(connect(base, [2, 2], modules).refusal).toBe('A node cannot be connected to itself');
    expect(connect(base, [2, 0], modules).refusal).toBe('Media source takes no inputs');
    expect(connect(base, [0, 2], modules).refusal).toBe('These nodes are already connected');
    expect(connect(base, [0, 4], modules).refusal).toBe(
      PUBLISH_MESSAGES.cannotConnect('Media source', 'Email notification'),
    );
    expect(connect(base, [0, 2], modules).network).toBe(base);
    const withWatermark = addNode(ok.network, 'watermark', modules);
    expect(connect(withWatermark.network, [withWatermark.nodeLocalId, 3], modules).refusal).toBe(
      'Transcode has no free input',
    );
    expect(connect(base, [9, 1], modules).refusal).toBe(PUBLISH_MESSAGES.hangingConnection('9-1'));
  });
});
