import { CLOUD_INSTALLED_MODULES, EDGE_INSTALLED_MODULES, PUBLISH_MODULES } from './catalogue.ts';
import {
  type Connection,
  DESTINATION_NODE_ID,
  FIRST_INPUT_NODE_ID,
  type NetworkNode,
  type Phase,
  PUBLISH_MESSAGES,
  type PublishButtonBody,
  type PublishLocation,
  type PublishLocationRef,
  type PublishModule,
  type PublishNetwork,
  SOURCE_NODE_ID,
} from './publishing.ts';

type ModuleList = readonly PublishModule[];

const findModule = (modules: ModuleList, id: string) => modules.find((candidate) => candidate.id === id);
/** spec3 §5: unknown modules are shown as 'Unknown module'. */
export const moduleDisplayName = (id: string, modules: ModuleList = PUBLISH_MODULES) =>
  findModule(modules, id)?.name ?? PUBLISH_MESSAGES.unknownModule;
const pairText = ([from, to]: Connection) => `${from}-${to}`;

/** May a module feed another: the target lists it among its inputs, selectable or not. */
export const acceptsInput = (target: PublishModule, source: PublishModule) =>
  target.selectableInputModuleIds.includes(source.id) ||
  target.nonSelectableInputModuleIds.includes(source.id);

/**
 * spec3 §5 Publishing button network check: every problem, in the spec's words. An empty list is a good
 * network.
 */
export const checkNetwork = (network: PublishNetwork, modules: ModuleList = PUBLISH_MODULES): string[] => {
  const problems: string[] = [];
  const byId = new Map(network.nodes.map((node) => [node.nodeLocalId, node]));
  for (const pair of network.connections) {
    if (!byId.has(pair[0]) || !byId.has(pair[1]))
      problems.push(PUBLISH_MESSAGES.hangingConnection(pairText(pair)));
  }
  const live = network.connections.filter((pair) => byId.has(pair[0]) && byId.has(pair[1]));
  for (const node of network.nodes) {
    const module = findModule(modules, node.moduleId);
    if (!module) {
      problems.push(PUBLISH_MESSAGES.invalidModule(node.moduleId));
      continue;
    }
    const inputs = live
      .filter(([, to]) => to === node.nodeLocalId)
      .map(([from]) => byId.get(from) as NetworkNode);
    if (inputs.length < module.minInputModules) problems.push(PUBLISH_MESSAGES.tooFewInputs(module.name));
    if (inputs.length > module.maxInputModules) problems.push(PUBLISH_MESSAGES.tooManyInputs(module.name));
    for (const input of inputs) {
      const inputModule = findModule(modules, input.moduleId);
      if (inputModule && !acceptsInput(module, inputModule))
        problems.push(PUBLISH_MESSAGES.cannotConnect(inputModule.name, module.name));
    }
    if (
      (module.type === 'source' || module.type === 'process') &&
      !live.some(([from]) => from === node.nodeLocalId)
    )
      problems.push(PUBLISH_MESSAGES.mustGoToDestination(module.name));
  }
  return problems;
};

export type ConnectRefusal =
  | 'self'
  | 'into-output'
  | 'missing'
  | 'duplicate'
  | 'incompatible'
  | 'no-free-input';

/**
 * spec3 §4 Connections: a compatible module pair, not already linked, into a free input port; never a
 * node to itself and never into a source (an output of the network). Answers why not, or null.
 */
export const connectionRefusal = (
  network: PublishNetwork,
  [from, to]: Connection,
  modules: ModuleList = PUBLISH_MODULES,
): ConnectRefusal | null => {
  if (from === to) return 'self';
  const source = network.nodes.find((node) => node.nodeLocalId === from);
  const target = network.nodes.find((node) => node.nodeLocalId === to);
  if (!source || !target) return 'missing';
  const sourceModule = findModule(modules, source.moduleId);
  const targetModule = findModule(modules, target.moduleId);
  if (!sourceModule || !targetModule) return 'missing';
  if (targetModule.type === 'source') return 'into-output';
  if (network.connections.some(([a, b]) => a === from && b === to)) return 'duplicate';
  if (!acceptsInput(targetModule, sourceModule)) return 'incompatible';
  const used = network.connections.filter(([, b]) => b === to).length;
  if (used >= targetModule.maxInputModules) return 'no-free-input';
  return null;
};

/** spec3 §4: more than one phase, or secondary networks, make a button complicated. */
export const isComplicated = (button: Pick<PublishButtonBody, 'phases'>) =>
  button.phases.length > 1 || button.phases.some((phase) => phase.phase.secondaryNetworks.length > 0);

/** The modules a button's networks use, once each. */
export const buttonModuleIds = (button: Pick<PublishButtonBody, 'phases'>) => [
  ...new Set(button.phases.flatMap((phase) => phase.phase.network.nodes.map((node) => node.moduleId))),
];

/** Every network problem of a button (spec3 §4: a button with a bad network is flagged bad). */
export const buttonProblems = (
  button: Pick<PublishButtonBody, 'phases'>,
  modules: ModuleList = PUBLISH_MODULES,
) => button.phases.flatMap((phase) => checkNetwork(phase.phase.network, modules));

const compareVersions = (a: string, b: string) => {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
};

export type LocationCheck =
  | { status: 'ok' }
  | { status: 'unknown-location' | 'not-installed' | 'needs-upgrade'; message: string };

/**
 * spec3 §4 Upgrade and installation checks, with the §8 text: can this location run the button's modules
 * at their current versions?
 */
export const locationCheck = (
  location: PublishLocation | undefined,
  button: Pick<PublishButtonBody, 'phases'>,
  modules: ModuleList = PUBLISH_MODULES,
): LocationCheck => {
  if (!location?.available)
    return {
      status: 'unknown-location',
      message: PUBLISH_MESSAGES.locationNotRunnable(
        location?.name ?? 'This location',
        PUBLISH_MESSAGES.locationUnavailable,
      ),
    };
  for (const id of buttonModuleIds(button)) {
    const module = findModule(modules, id);
    const installed = location.modules[id];
    const name = module?.name ?? id;
    if (installed === undefined)
      return {
        status: 'not-installed',
        message: PUBLISH_MESSAGES.locationNotRunnable(
          location.name,
          PUBLISH_MESSAGES.moduleNotInstalled(name),
        ),
      };
    if (module && compareVersions(installed, module.version) < 0)
      return {
        status: 'needs-upgrade',
        message: PUBLISH_MESSAGES.locationNotRunnable(
          location.name,
          PUBLISH_MESSAGES.moduleNeedsUpgrade(name),
        ),
      };
  }
  return { status: 'ok' };
};

/** The modules installed at a location kind. */
export const installedModules = (location: PublishLocationRef) =>
  location.type === 'cloud' ? CLOUD_INSTALLED_MODULES : EDGE_INSTALLED_MODULES;

/** Default option values of a module's form. */
export const defaultOptions = (module: PublishModule) =>
  Object.fromEntries(
    module.schema
      .filter((item) => item.defaultValue !== undefined)
      .map((item) => [item.name, item.defaultValue]),
  );

/**
 * spec3 §3 A new button: node 0 the source, node 1 the destination, node 2 upward the destination's
 * default input modules (each fed by the source); enabled, run in the cloud, every role allowed.
 */
export const newButtonBody = (
  choice: { name: string; processModuleId: string; destinationModuleId: string },
  modules: ModuleList = PUBLISH_MODULES,
): PublishButtonBody => {
  const source = modules.find((candidate) => candidate.type === 'source');
  const destination = findModule(modules, choice.destinationModuleId);
  const process = findModule(modules, choice.processModuleId);
  if (!source || !destination || !process)
    throw new Error(PUBLISH_MESSAGES.invalidModule(choice.destinationModuleId));
  const nodes: NetworkNode[] = [
    { nodeLocalId: SOURCE_NODE_ID, moduleId: source.id, options: {} },
    { nodeLocalId: DESTINATION_NODE_ID, moduleId: destination.id, options: defaultOptions(destination) },
    { nodeLocalId: FIRST_INPUT_NODE_ID, moduleId: process.id, options: defaultOptions(process) },
  ];
  const connections: Connection[] = [
    [SOURCE_NODE_ID, FIRST_INPUT_NODE_ID],
    [FIRST_INPUT_NODE_ID, DESTINATION_NODE_ID],
  ];
  const phase: Phase = {
    phase: {
      id: 0,
      primaryNetwork: { destinationNode: DESTINATION_NODE_ID, processNodes: [FIRST_INPUT_NODE_ID] },
      secondaryNetworks: [],
      preNodes: [],
      postNodes: [],
      network: { nodes, connections },
    },
    location: { type: 'cloud', id: null },
    inputs: {},
  };
  return {
    name: choice.name,
    description: '',
    keepFor: null,
    enabled: true,
    iconId: null,
    phases: [phase],
    restrictions: [],
    location: { type: 'cloud', id: null },
  };
};

/** The choices of the Add Publishing Button dialog: selectable process and destination modules. */
export const newButtonChoices = (modules: ModuleList = PUBLISH_MODULES) => ({
  sourceProcessing: modules.filter((candidate) => candidate.type === 'process' && candidate.selectable),
  destinations: modules.filter((candidate) => candidate.type === 'destination' && candidate.selectable),
});
