import { z } from 'zod';
import { isFieldRequired } from '../forms/rules.ts';
import type { FormSchema, FormSchemaItem, FormValues } from '../forms/schema.ts';
import { publishModule } from './catalogue.ts';
import type { NetworkNode, Phase } from './publishing.ts';

/** DESIGN "Publishing": one run of a button on one node. */
export const PUBLISH_STATUSES = ['queued', 'running', 'done', 'failed', 'deleted'] as const;
export type PublishStatus = (typeof PUBLISH_STATUSES)[number];

/** Where a destination module put the result (a folder path, a URL, a video id). */
export const publishOutputSchema = z.object({ moduleId: z.string(), location: z.string() });
export type PublishOutput = z.infer<typeof publishOutputSchema>;

/** A published item (GET /api/publishButtons/{id}/publishes, GET /api/publishes/{id}). */
export const publishSchema = z.object({
  id: z.number().int(),
  buttonId: z.number().int(),
  accountId: z.number().int(),
  nodeId: z.number().int().nullable(),
  status: z.enum(PUBLISH_STATUSES),
  progress: z.number().int().min(0).max(100).nullable(),
  log: z.array(z.string()),
  outputs: z.array(publishOutputSchema),
  error: z.string().nullable(),
  options: z.record(z.string(), z.unknown()),
  createdTime: z.string(),
  startedTime: z.string().nullable(),
  finishedTime: z.string().nullable(),
});
export type Publish = z.infer<typeof publishSchema>;

export const PUBLISH_RUN_MESSAGES = {
  noSource: 'The node has no media file to publish',
  notRendered: 'The clip is not rendered yet',
  unknownModule: (moduleId: string) => `The module ${moduleId} is not installed`,
  cannotRunYet: (name: string) => `This cloud cannot run the module ${name} yet`,
  chainBroken: (destination: string) => `Nothing feeds the destination ${destination}`,
  watermarkEmpty: 'The watermark has neither a text nor an image: give it one of them',
  noButtonIcon: (button: string) => `The publishing button ${button} has no icon for the watermark`,
  iconNotFound: "The watermark's uploaded icon was not chosen, or it is no longer there",
  noSubtitles: (node: string, language: string) => `${node} has no ${language} subtitles`,
  originalNotKept: (node: string) =>
    `The original of ${node} is not kept in the cloud: publish its proxy instead`,
  notMedia: (path: string) => `${path} is a folder: only media can be published`,
  optionsNeeded: 'This publishing button needs more options for each publish',
  optionsTitle: (button: string) => `Publish with ${button}`,
} as const;

/**
 * Which file of the node a run publishes (the source module's File option): its playable proxy, or the
 * original when the cloud keeps it. A clip's or sequence's file is its render either way.
 */
export const publishSourceFileOf = (network: {
  nodes: { moduleId: string; options: Record<string, unknown> }[];
}) =>
  network.nodes.find((node) => node.moduleId === 'source-media')?.options.file === 'source'
    ? 'source'
    : 'proxy';

/** A publishing button shows in an account's tree as /{account}/Publish/{button name} (DESIGN "Publishing"). */
export const PUBLISH_FOLDER_NAME = 'Publish';

/** The button name a destination inner path names ('/Publish/Web' → 'Web'), or undefined. */
export const publishButtonNameOf = (innerPath: string) => {
  const segments = innerPath.split('/').filter((segment) => segment !== '');
  return segments.length === 2 && segments[0] === PUBLISH_FOLDER_NAME ? segments[1] : undefined;
};

/** One destination with the processes that make its file, in the order they run (source first). */
export type PublishChain = { destination: NetworkNode; processes: NetworkNode[] };
/** What a run of a phase does: each chain, then the post modules. */
export type PublishRunPlan = { chains: PublishChain[]; post: NetworkNode[]; problems: string[] };

/**
 * The order a phase's network runs in (DESIGN "Publishing": the network decides the order): for the primary
 * and each secondary network, the process nodes from the source towards the destination, following the
 * connections back from the destination; then the post nodes. A destination nothing feeds is a problem.
 */
export const publishRunPlan = (phase: Phase['phase']): PublishRunPlan => {
  const byId = new Map(phase.network.nodes.map((node) => [node.nodeLocalId, node]));
  const feeding = (id: number) =>
    phase.network.connections.filter(([, to]) => to === id).map(([from]) => byId.get(from));
  const problems: string[] = [];
  const chains: PublishChain[] = [];
  for (const network of [phase.primaryNetwork, ...phase.secondaryNetworks]) {
    const destination = byId.get(network.destinationNode);
    if (!destination) continue;
    const processes: NetworkNode[] = [];
    const seen = new Set<number>([destination.nodeLocalId]);
    let current = feeding(destination.nodeLocalId).find((node) => node && isProcess(node));
    while (current && !seen.has(current.nodeLocalId)) {
      seen.add(current.nodeLocalId);
      processes.unshift(current);
      current = feeding(current.nodeLocalId).find((node) => node && isProcess(node));
    }
    if (processes.length === 0) {
      problems.push(PUBLISH_RUN_MESSAGES.chainBroken(moduleName(destination.moduleId)));
      continue;
    }
    chains.push({ destination, processes });
  }
  const post = phase.postNodes.flatMap((id) => byId.get(id) ?? []);
  return { chains, post, problems };
};

const isProcess = (node: NetworkNode) => publishModule(node.moduleId)?.type === 'process';
const moduleName = (moduleId: string) => publishModule(moduleId)?.name ?? moduleId;

/** A trashed button in the Recycle Bin (GET /api/{ctx}/recycleBin) with the items it took with it. */
export const recycledButtonSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  trashedTime: z.string(),
  publishedItems: z.number().int(),
});
export type RecycledButton = z.infer<typeof recycledButtonSchema>;

/** Field types a person answers in the publish additional-options dialog (spec3 §2). */
const ASKED_TYPES = new Set(['text', 'textarea', 'select']);
const isEmpty = (value: unknown) => value === undefined || value === null || String(value).trim() === '';
const withoutRequiredIf = ({ requiredIf: _requiredIf, ...field }: FormSchemaItem) => field;

/** A node's options with its module's defaults where it has none. */
const withDefaults = (node: NetworkNode) => {
  const values: Record<string, unknown> = {};
  for (const field of publishModule(node.moduleId)?.schema ?? [])
    if (field.defaultValue !== undefined) values[field.name] = field.defaultValue;
  for (const [name, value] of Object.entries(node.options)) if (!isEmpty(value)) values[name] = value;
  return values;
};

/**
 * The options a publish must be given (spec3 §4 notEnoughPublishData): required text, textarea or select
 * fields that the button leaves empty on a module it runs, and that `given` does not answer either. A field
 * required only if another has some value (requiredIf) reads that one as the button has it, or its default.
 */
export const publishOptionsNeeded = (
  phase: Phase['phase'],
  given: Record<string, unknown> = {},
): FormSchema => {
  const plan = publishRunPlan(phase);
  const needed = new Map<string, FormSchema[number]>();
  for (const node of [
    ...plan.chains.flatMap((chain) => [...chain.processes, chain.destination]),
    ...plan.post,
  ])
    for (const field of publishModule(node.moduleId)?.schema ?? [])
      if (
        ASKED_TYPES.has(field.type) &&
        isFieldRequired(field, withDefaults(node) as FormValues) &&
        isEmpty(node.options[field.name]) &&
        isEmpty(given[field.name])
      )
        // Asked because this button needs it: required in the dialog, whatever made it required here.
        needed.set(field.name, { ...withoutRequiredIf(field), required: true });
  return [...needed.values()];
};

/** A module's options for one publish: what the person gave fills what the button left empty. */
export const withPublishData = (options: Record<string, unknown>, given: Record<string, unknown>) => {
  const filled = { ...options };
  for (const [name, value] of Object.entries(given)) if (isEmpty(filled[name])) filled[name] = value;
  return filled;
};

/** The details of a notEnoughPublishData answer: the nodes to ask for, the dialog's title and its fields. */
export type NotEnoughPublishData = { nodes: string[]; title: string; schema: FormSchema };
