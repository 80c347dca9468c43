import {
  BUTTON_NAME_MAX,
  type FormValues,
  type NetworkNode,
  PUBLISH_MESSAGES,
  type PublishButton,
  type PublishButtonBody,
  type PublishModule,
  type PublishNetwork,
  type RoleRestriction,
  validateForm,
} from '@media/contract';

/**
 * What a button card edits and saves in one go. Name and enabled are left out: a saved button sends them
 * on their own ({id, name}, {enabled}), so they never make the card dirty.
 */
export type ButtonForm = Omit<PublishButtonBody, 'name' | 'enabled'>;

/** The saved copy of a server button (its flags, id and dates stay on the server's object). */
export const formOf = (button: PublishButton): ButtonForm => ({
  description: button.description,
  keepFor: button.keepFor,
  iconId: button.iconId,
  phases: button.phases,
  restrictions: button.restrictions,
  location: button.location,
});

/** The body sent to the server: only the contract's fields, so transient flags are never sent. */
export const bodyOf = (name: string, enabled: boolean, form: ButtonForm): PublishButtonBody => ({
  name: name.trim(),
  enabled,
  description: form.description,
  keepFor: form.keepFor,
  iconId: form.iconId,
  phases: form.phases,
  restrictions: form.restrictions,
  location: form.location,
});

export const byName = <T extends { name: string }>(list: readonly T[]) =>
  [...list].sort((a, b) => a.name.localeCompare(b.name, 'en-GB', { sensitivity: 'base' }));

export const nameError = (name: string) => {
  if (!name.trim()) return PUBLISH_MESSAGES.required;
  if (name.trim().length > BUTTON_NAME_MAX) return PUBLISH_MESSAGES.nameTooLong;
  return undefined;
};

export const primaryNetwork = (form: Pick<ButtonForm, 'phases'>): PublishNetwork =>
  form.phases[0]?.phase.network ?? { nodes: [], connections: [] };

const moduleOf = (modules: readonly PublishModule[], node: NetworkNode | undefined) =>
  node ? modules.find((m) => m.id === node.moduleId) : undefined;

/**
 * The simple shape the card's two selects can show: source → one process → one destination, one phase.
 * Answers the process and destination nodes, or null when the network is more than that.
 */
export const simpleNodes = (form: Pick<ButtonForm, 'phases'>, modules: readonly PublishModule[]) => {
  if (form.phases.length !== 1 || (form.phases[0]?.phase.secondaryNetworks.length ?? 0) > 0) return null;
  const { nodes, connections } = primaryNetwork(form);
  if (nodes.length !== 3 || connections.length !== 2) return null;
  const ofType = (type: string) => nodes.find((node) => moduleOf(modules, node)?.type === type);
  const source = ofType('source');
  const process = ofType('process');
  const destination = ofType('destination');
  if (!source || !process || !destination) return null;
  const linked = (from: number, to: number) => connections.some(([a, b]) => a === from && b === to);
  if (!linked(source.nodeLocalId, process.nodeLocalId)) return null;
  if (!linked(process.nodeLocalId, destination.nodeLocalId)) return null;
  return { process, destination };
};

const defaults = (module: PublishModule | undefined) =>
  Object.fromEntries(
    (module?.schema ?? [])
      .filter((item) => item.defaultValue !== undefined)
      .map((item) => [item.name, item.defaultValue]),
  );

/** The primary network's process and destination node ids, as the phase lists them. */
const withPrimary = (network: PublishNetwork, modules: readonly PublishModule[]) => {
  const typed = (type: string) =>
    network.nodes.filter((node) => moduleOf(modules, node)?.type === type).map((node) => node.nodeLocalId);
  return { destinationNode: typed('destination')[0] ?? 0, processNodes: typed('process') };
};

/** Puts a network (from network mode) into the first phase. */
export const withNetwork = (
  form: ButtonForm,
  network: PublishNetwork,
  modules: readonly PublishModule[],
): ButtonForm => {
  const [first, ...rest] = form.phases;
  if (!first) return form;
  return {
    ...form,
    phases: [
      {
        ...first,
        phase: {
          ...first.phase,
          network,
          primaryNetwork: { ...first.phase.primaryNetwork, ...withPrimary(network, modules) },
        },
      },
      ...rest,
    ],
  };
};

/** Changes a node's module (the card's Source Processing and Destination selects); options go to defaults. */
export const withNodeModule = (
  form: ButtonForm,
  nodeLocalId: number,
  moduleId: string,
  modules: readonly PublishModule[],
): ButtonForm => {
  const network = primaryNetwork(form);
  const module = modules.find((m) => m.id === moduleId);
  const nodes = network.nodes.map((node) =>
    node.nodeLocalId === nodeLocalId ? { ...node, moduleId, options: defaults(module) } : node,
  );
  return withNetwork(form, { ...network, nodes }, modules);
};

export const withNodeOptions = (
  form: ButtonForm,
  nodeLocalId: number,
  options: Record<string, unknown>,
  modules: readonly PublishModule[],
): ButtonForm => {
  const network = primaryNetwork(form);
  const nodes = network.nodes.map((node) => (node.nodeLocalId === nodeLocalId ? { ...node, options } : node));
  return withNetwork(form, { ...network, nodes }, modules);
};

/** The nodes whose options a user fills: those whose module has a form. */
export const nodesWithOptions = (form: Pick<ButtonForm, 'phases'>, modules: readonly PublishModule[]) =>
  primaryNetwork(form).nodes.filter((node) => (moduleOf(modules, node)?.schema.length ?? 0) > 0);

/**
 * spec3 §5: forms must be valid before a button is created or saved. The options forms that are not, as
 * '{module}: {field label}', over every node of every phase.
 */
export const missingOptions = (form: Pick<ButtonForm, 'phases'>, modules: readonly PublishModule[]) =>
  form.phases.flatMap((phase) =>
    phase.phase.network.nodes.flatMap((node) => {
      const module = moduleOf(modules, node);
      if (!module || module.schema.length === 0) return [];
      const check = validateForm(module.schema, node.options as FormValues);
      if (check.valid) return [];
      return module.schema
        .filter((item) => check.required[item.name] || (check.errors[item.name]?.length ?? 0) > 0)
        .map((item) => `${module.name}: ${item.label ?? item.name}`);
    }),
  );

/** Every role of the site, allowed unless the button's restrictions say otherwise (a new button allows all). */
export const restrictionsFor = (
  roles: readonly { id: number; name: string }[],
  restrictions: readonly RoleRestriction[],
): RoleRestriction[] => [
  ...roles.map((role) => ({
    roleId: role.id,
    roleName: role.name,
    allow: restrictions.find((r) => r.roleId === role.id)?.allow ?? true,
  })),
  // A restriction of a role this page does not know of is kept as it is.
  ...restrictions.filter((r) => !roles.some((role) => role.id === r.roleId)),
];
