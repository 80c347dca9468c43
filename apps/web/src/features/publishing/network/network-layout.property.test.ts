import {
  type Connection,
  checkNetwork,
  moduleDisplayName,
  newButtonBody,
  PUBLISH_MESSAGES,
  PUBLISH_MODULES,
  type PublishNetwork,
} from '@media/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addModuleNode,
  connect,
  deleteNode,
  hiddenSourceNode,
  isRemovable,
  isStratified,
  layoutNetwork,
  mainDestinationId,
  mainSourceId,
  removeConnection,
  setProcessNodes,
} from './network-layout.ts';

const modules = PUBLISH_MODULES;
const selectable = modules.filter((module) => module.selectable).map((module) => module.id);
const processIds = modules.filter((module) => module.type === 'process').map((module) => module.id);
/** A new button's process and destination, a pair the destination accepts. */
const startPairs = modules
  .filter((module) => module.type === 'destination')
  .flatMap((destination) =>
    processIds
      .filter((id) => destination.selectableInputModuleIds.includes(id))
      .map((id) => [id, destination.id] as const),
  );

const start = ([processModuleId, destinationModuleId]: readonly [string, string]): PublishNetwork =>
  structuredClone(
    newButtonBody({ name: 'P', processModuleId, destinationModuleId }, modules).phases[0]?.phase
      .network as PublishNetwork,
  );

/** One editor action; numbers pick among the network's nodes or connections at the time. */
const action = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('add' as const), moduleId: fc.constantFrom(...selectable) }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('connect' as const), from: fc.nat(9), to: fc.nat(9) }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(9) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('unlink' as const), pick: fc.nat(9) }), weight: 1 },
);

type Action = typeof action extends fc.Arbitrary<infer T> ? T : never;

const apply = (network: PublishNetwork, step: Action): PublishNetwork => {
  const ids = network.nodes.map((node) => node.nodeLocalId);
  const at = (pick: number) => ids[pick % ids.length] as number;
  switch (step.kind) {
    case 'add':
      return addModuleNode(network, step.moduleId, modules).network;
    case 'connect':
      return connect(network, [at(step.from), at(step.to)], modules).network;
    case 'delete': {
      const id = at(step.pick);
      return isRemovable(network, modules, id) ? deleteNode(network, id, modules) : network;
    }
    case 'unlink': {
      const pair = network.connections[step.pick % Math.max(1, network.connections.length)];
      return pair ? removeConnection(network, pair) : network;
    }
  }
};

const key = ([from, to]: Connection) => `${from}-${to}`;

describe('network editing (properties)', () => {
  it('any sequence of editor actions keeps ids unique, links whole and single, and the main nodes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...startPairs), fc.array(action, { maxLength: 40 }), (pair, steps) => {
        let network = start(pair);
        for (const step of steps) network = apply(network, step);
        const ids = network.nodes.map((node) => node.nodeLocalId);
        expect(new Set(ids).size).toBe(ids.length);
        expect(network.connections.every(([from, to]) => ids.includes(from) && ids.includes(to))).toBe(true);
        expect(new Set(network.connections.map(key)).size).toBe(network.connections.length);
        expect(mainSourceId(network, modules)).toBe(0);
        expect(mainDestinationId(network, modules)).toBe(1);
        // Only the source's direct link to the destination (the hidden source rule) breaks the pairing rule.
        const name = (id: number) =>
          moduleDisplayName(network.nodes.find((node) => node.nodeLocalId === id)?.moduleId ?? '', modules);
        const direct = PUBLISH_MESSAGES.cannotConnect(name(0), name(1));
        const pairing = checkNetwork(network, modules).filter((problem) =>
          problem.includes('cannot be connected'),
        );
        expect(pairing.every((problem) => problem === direct)).toBe(true);
        if (hiddenSourceNode(network, modules) !== null) expect(network.connections).toContainEqual([0, 1]);
      }),
      { numRuns: 500 },
    );
  });

  it('setProcessNodes always gives a stratified network; the source is hidden exactly when none is chosen', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...startPairs),
        fc.array(fc.constantFrom(...processIds), { maxLength: 4 }),
        (pair, chosen) => {
          const network = setProcessNodes(start(pair), chosen, modules);
          expect(isStratified(network, modules)).toBe(true);
          expect(hiddenSourceNode(network, modules) === null).toBe(chosen.length > 0);
          expect(network.nodes.filter((node) => node.moduleId !== 'source-media').length).toBe(
            chosen.length + 1,
          );
        },
      ),
    );
  });

  it('lays out every node in its own place, and a stratified network runs left to right', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...startPairs),
        fc.array(fc.constantFrom(...processIds), { minLength: 1, maxLength: 6 }),
        (pair, chosen) => {
          const network = setProcessNodes(start(pair), chosen, modules);
          const placed = layoutNetwork(network, modules);
          expect(placed.length).toBe(network.nodes.length);
          expect(new Set(placed.map((place) => `${place.x},${place.y}`)).size).toBe(placed.length);
          const column = (id: number) => placed.find((place) => place.nodeLocalId === id)?.column ?? -1;
          for (const [from, to] of network.connections) expect(column(from)).toBeLessThan(column(to));
        },
      ),
    );
  });

  it('a refused connection leaves the network as it was', () => {
    fc.assert(
      fc.property(fc.nat(3), fc.nat(3), (from, to) => {
        const network = start(['as-is', 'youtube']);
        const result = connect(network, [from, to], modules);
        if (result.refusal !== null) expect(result.network).toBe(network);
        else expect(result.network.connections).toContainEqual([from, to]);
        expect(result.refusal === PUBLISH_MESSAGES.unknownModule).toBe(false);
      }),
    );
  });
});
