import { z } from 'zod';
import { optionDefinitionSchema } from '../edge/edge.ts';
import { idSchema } from '../http/input.ts';

/** spec2 §3, §8 and §6: the texts of the arrivals pages. */
export const ARRIVALS_MESSAGES = {
  defaultName: 'New arrivals folder',
  unassigned: '** Unassigned **',
  createNewFolder: '** Create New Folder **',
  noWorkflow: 'No workflow (use arrivals folder ingest format)',
  managerMustSet: '** An account manager must set **',
  fetchFailed: (error: string) => `Error fetching arrivals folderss: ${error}`,
  saved: (name: string) => `Saved ${name}`,
  saveFailed: (name: string, error: string) => `Unable to save ${name} - ${error}`,
  required: 'This field is required',
} as const;

/** spec2 §3: the ids of the special choices. */
export const CREATE_NEW_FOLDER_ID = 'NEW';
export const NO_WORKFLOW_ID = 'noWorkflow';

export const arrivalsFolderTypeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  options: z.array(optionDefinitionSchema),
});
export type ArrivalsFolderType = z.infer<typeof arrivalsFolderTypeSchema>;

export const arrivalsFolderOptionsSchema = z.record(
  z.string().max(60),
  z.union([z.string().max(2000), z.number(), z.boolean()]),
);

export const arrivalsFolderSchema = z.object({
  id: z.number().int(),
  accountId: z.number().int(),
  typeId: z.string(),
  name: z.string(),
  priority: z.number().int(),
  options: arrivalsFolderOptionsSchema,
  endpointCount: z.number().int(),
});
export type ArrivalsFolder = z.infer<typeof arrivalsFolderSchema>;

const folderName = z
  .string()
  .trim()
  .min(1, { error: ARRIVALS_MESSAGES.required })
  .max(100, { error: 'At most 100 characters' });

/** POST /api/accounts/{id}/arrivalsFolders: a name, or the full folder. */
export const arrivalsFolderCreateSchema = z.strictObject({
  name: folderName.default(ARRIVALS_MESSAGES.defaultName),
  typeId: z.string().min(1).max(60).optional(),
  priority: z.number().int().min(-1000).max(1000).default(0),
  options: arrivalsFolderOptionsSchema.default({}),
  accountId: idSchema.optional(),
  /** A new folder's temporary id; ignored. */
  id: z.union([z.string(), z.number()]).optional(),
});

/** POST /api/arrivalsFolders/{id}: the full folder, or `{ id, name }`. */
export const arrivalsFolderUpdateSchema = z.strictObject({
  id: idSchema,
  name: folderName,
  typeId: z.string().min(1).max(60).optional(),
  priority: z.number().int().min(-1000).max(1000).optional(),
  options: arrivalsFolderOptionsSchema.optional(),
  accountId: idSchema.optional(),
});

export const arrivalsAssignmentSchema = z.strictObject({
  endpointId: idSchema,
  arrivalsFolderId: idSchema,
});
export type ArrivalsAssignment = z.infer<typeof arrivalsAssignmentSchema>;

/** One assignment or a list of them. */
export const arrivalsAssignmentsBodySchema = z.union([
  arrivalsAssignmentSchema,
  z.array(arrivalsAssignmentSchema).min(1).max(1000),
]);

/**
 * The kinds of arrivals folder (GET /api/accounts/{id}/arrivalsFolderTypes); the spec leaves their fields to
 * us. The first is the default of a new folder.
 */
export const ARRIVALS_FOLDER_TYPES: readonly ArrivalsFolderType[] = [
  {
    id: 'standard',
    name: 'Standard',
    description: 'Ingests media into the media tree under the folder name, with proxies',
    options: [
      {
        name: 'targetFolder',
        label: 'Media tree folder',
        kind: 'text',
        default: 'Arrivals',
        required: true,
      },
      {
        name: 'ingestFormat',
        label: 'Ingest format',
        kind: 'text',
        default: '',
        required: false,
      },
      { name: 'makeProxies', label: 'Make proxies', kind: 'boolean', default: 'true', required: false },
    ],
  },
  {
    id: 'proxyOnly',
    name: 'Proxy only',
    description: 'Keeps proxies and thumbnails in the cloud; masters stay at the edge',
    options: [
      {
        name: 'targetFolder',
        label: 'Media tree folder',
        kind: 'text',
        default: 'Arrivals',
        required: true,
      },
    ],
  },
  {
    id: 'archive',
    name: 'Archive',
    description: 'Uploads masters for long-term keeping; no proxies',
    options: [
      {
        name: 'retentionDays',
        label: 'Keep for (days)',
        kind: 'number',
        default: '3650',
        required: true,
      },
      {
        name: 'storageClass',
        label: 'Storage class',
        kind: 'select',
        choices: ['standard', 'infrequent', 'glacier'],
        default: 'standard',
        required: true,
      },
    ],
  },
];

/** Answers the type of that id, or undefined. */
export const arrivalsFolderType = (typeId: string) =>
  ARRIVALS_FOLDER_TYPES.find((type) => type.id === typeId);

/** The server's refusals of arrivals folders and their endpoint assignments. */
export const ARRIVALS_ERRORS = {
  unknownType: (typeId: string) => `Unknown arrivals folder type: ${typeId}`,
  unknownOption: 'Unknown option',
  idMismatch: 'The id in the body must match the address',
  otherAccount: 'An arrivals folder cannot move to another account',
  endpointOfOtherAccount: (endpointId: number) =>
    `Endpoint ${endpointId} belongs to another account than the arrivals folder`,
  notAssigned: (endpointId: number, arrivalsFolderId: number) =>
    `Endpoint ${endpointId} is not assigned to arrivals folder ${arrivalsFolderId}`,
} as const;
