import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLOUD_INSTALLED_MODULES,
  EDGE_INSTALLED_MODULES,
  PUBLISH_MODULES,
  publishModule,
} from './catalogue.ts';
import {
  checkNetwork,
  connectionRefusal,
  isComplicated,
  locationCheck,
  moduleDisplayName,
  newButtonBody,
  newButtonChoices,
} from './network.ts';
import {
  isKeepForChoice,
  KEEP_FOR_CHOICES,
  PUBLISH_MESSAGES,
  type PublishNetwork,
  publishButtonBodySchema,
  publishButtonUpdateSchema,
} from './publishing.ts';

const fresh = () =>
  newButtonBody({ name: 'Web', processModuleId: 'transcode', destinationModuleId: 'youtube' });
const networkOf = (button = fresh()) =>
  (button.phases[0]?.phase.network ?? { nodes: [], connections: [] }) as PublishNetwork;

describe('module catalogue', () => {
  it('has unique ids and inputs that name modules of the catalogue', () => {
    const ids = PUBLISH_MODULES.map((module) => module.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const module of PUBLISH_MODULES) {
      for (const input of [...module.selectableInputModuleIds, ...module.defaultInputModuleIds])
        expect(publishModule(input), `${module.id} ← ${input}`).toBeDefined();
      expect(module.minInputModules).toBeLessThanOrEqual(module.maxInputModules);
    }
  });

  it('runs every module in the cloud and a subset on edge servers', () => {
    expect(Object.keys(CLOUD_INSTALLED_MODULES)).toHaveLength(PUBLISH_MODULES.length);
    for (const id of Object.keys(EDGE_INSTALLED_MODULES)) expect(publishModule(id)).toBeDefined();
  });

  it("shows unknown modules as 'Unknown module'", () => {
    expect(moduleDisplayName('transcode')).toBe('Transcode');
    expect(moduleDisplayName('nope')).toBe('Unknown module');
  });
});

describe('a new button (spec3 §3)', () => {
  it('has the source as node 0, the destination as 1 and its input from 2, enabled, in the cloud', () => {
    const button = fresh();
    const nodes = networkOf(button).nodes;
    expect(nodes.map((node) => [node.nodeLocalId, node.moduleId])).toEqual([
      [0, 'source-media'],
      [1, 'youtube'],
      [2, 'transcode'],
    ]);
    expect(button.enabled).toBe(true);
    expect(button.location).toEqual({ type: 'cloud', id: null });
    expect(button.restrictions).toEqual([]);
    expect(nodes[1]?.options).toEqual({ privacy: 'unlisted' });
    expect(checkNetwork(networkOf(button))).toEqual([]);
    expect(publishButtonBodySchema.safeParse(button).success).toBe(true);
  });

  it('is built from every pair the Add Publishing Button dialog offers, and is a good network', () => {
    const { sourceProcessing, destinations } = newButtonChoices();
    expect(sourceProcessing.length).toBeGreaterThan(1);
    expect(destinations.length).toBeGreaterThan(1);
    for (const process of sourceProcessing)
      for (const destination of destinations) {
        const button = newButtonBody({
          name: 'x',
          processModuleId: process.id,
          destinationModuleId: destination.id,
        });
        const problems = checkNetwork(networkOf(button));
        const accepts = destination.selectableInputModuleIds.includes(process.id);
        expect(problems.length === 0, `${process.id} → ${destination.id}`).toBe(accepts);
      }
  });
});

describe('network check (spec3 §5)', () => {
  it('reports hanging connections, invalid modules and input counts in the spec words', () => {
    const network = networkOf();
    expect(checkNetwork({ ...network, connections: [...network.connections, [2, 9]] })).toContain(
      PUBLISH_MESSAGES.hangingConnection('2-9'),
    );
    expect(
      checkNetwork({
        ...network,
        nodes: [...network.nodes, { nodeLocalId: 5, moduleId: 'zzz', options: {} }],
      }),
    ).toContain('Invalid module zzz');
    expect(checkNetwork({ ...network, connections: [[0, 2]] })).toEqual(
      expect.arrayContaining(['Too few inputs for YouTube', 'Transcode must go to a destination']),
    );
    const extra = { nodeLocalId: 3, moduleId: 'as-is', options: {} };
    expect(
      checkNetwork({
        nodes: [...network.nodes, extra],
        connections: [...network.connections, [0, 3], [3, 1]],
      }),
    ).toContain('Too many inputs for YouTube');
  });

  it('refuses an input the module does not take', () => {
    const network: PublishNetwork = {
      nodes: [
        { nodeLocalId: 0, moduleId: 'source-media', options: {} },
        { nodeLocalId: 1, moduleId: 'webhook', options: {} },
        { nodeLocalId: 2, moduleId: 'watermark', options: {} },
      ],
      connections: [
        [0, 2],
        [2, 1],
      ],
    };
    expect(checkNetwork(network)).toEqual(['Watermark cannot be connected to Webhook']);
  });
});

describe('connections (spec3 §4)', () => {
  it('refuse self-links, links into the source, duplicates, incompatible pairs and full inputs', () => {
    const network = networkOf();
    expect(connectionRefusal(network, [2, 2])).toBe('self');
    expect(connectionRefusal(network, [2, 0])).toBe('into-output');
    expect(connectionRefusal(network, [0, 2])).toBe('duplicate');
    expect(connectionRefusal(network, [1, 2])).toBe('incompatible');
    const withSecond = {
      ...network,
      nodes: [...network.nodes, { nodeLocalId: 3, moduleId: 'as-is', options: {} }],
    };
    expect(connectionRefusal(withSecond, [3, 1])).toBe('no-free-input');
    expect(connectionRefusal(withSecond, [0, 3])).toBeNull();
    expect(connectionRefusal(network, [0, 7])).toBe('missing');
  });

  it('never accepts a connection the network check would then refuse as incompatible', () => {
    const ids = [0, 1, 2];
    fc.assert(
      fc.property(fc.constantFrom(...ids), fc.constantFrom(...ids), (from, to) => {
        const network = { ...networkOf(), connections: [] };
        if (connectionRefusal(network, [from, to]) === null) {
          const problems = checkNetwork({ ...network, connections: [[from, to]] });
          expect(problems.some((problem) => problem.includes('cannot be connected'))).toBe(false);
        }
      }),
    );
  });
});

describe('complicated buttons and locations', () => {
  it('flags more than one phase or secondary networks', () => {
    const button = fresh();
    expect(isComplicated(button)).toBe(false);
    const [phase] = button.phases;
    if (!phase) throw new Error('no phase');
    expect(isComplicated({ phases: [phase, phase] })).toBe(true);
    expect(
      isComplicated({
        phases: [
          {
            ...phase,
            phase: { ...phase.phase, secondaryNetworks: [{ destinationNode: 1, processNodes: [] }] },
          },
        ],
      }),
    ).toBe(true);
  });

  it('says why a location cannot run a button', () => {
    const button = fresh();
    const edge = {
      type: 'edge' as const,
      id: 4,
      name: 'Studio',
      available: true,
      modules: { ...EDGE_INSTALLED_MODULES },
    };
    expect(locationCheck(edge, button)).toEqual({
      status: 'not-installed',
      message:
        'Studio will not be able to run this publishing button because the module YouTube is not installed',
    });
    const local = newButtonBody({
      name: 'x',
      processModuleId: 'transcode',
      destinationModuleId: 'folder-export',
    });
    expect(locationCheck(edge, local)).toEqual({
      status: 'needs-upgrade',
      message:
        'Studio will not be able to run this publishing button because the module Transcode must be upgraded',
    });
    expect(locationCheck({ ...edge, available: false }, local).status).toBe('unknown-location');
    const cloud = {
      type: 'cloud' as const,
      id: null,
      name: 'Cloud',
      available: true,
      modules: { ...CLOUD_INSTALLED_MODULES },
    };
    expect(locationCheck(cloud, button)).toEqual({ status: 'ok' });
  });
});

describe('button bodies', () => {
  it('keep for Ever or 2 to 30 days in seconds', () => {
    expect(KEEP_FOR_CHOICES[0]).toEqual({ label: 'Ever', seconds: null });
    expect(KEEP_FOR_CHOICES.at(-1)).toEqual({ label: '30 days', seconds: 30 * 86_400 });
    expect(isKeepForChoice(86_400)).toBe(false);
    expect(isKeepForChoice(2 * 86_400)).toBe(true);
  });

  it('take a whole button, a rename or an enabled flag as an update', () => {
    expect(publishButtonUpdateSchema.safeParse({ id: 3, name: 'New name' }).success).toBe(true);
    expect(publishButtonUpdateSchema.safeParse({ enabled: false }).success).toBe(true);
    expect(publishButtonUpdateSchema.safeParse(fresh()).success).toBe(true);
    expect(publishButtonUpdateSchema.safeParse({ enabled: false, deleting: true }).success).toBe(false);
  });
});
