import {
  ACCUMULATE_METADATA_KEYS,
  FIELD59_METADATA_KEY,
  FIELD59_SCHEME,
  type FolderAccess,
  type FolderPermission,
  NODE_MESSAGES,
  NODE_TYPES,
  type NodeType,
  SEARCH_RESULTS_SUFFIX,
  type SearchClause,
  type TransferOperation,
} from './nodes.ts';

/** `/acme/News/Clip` → ['acme', 'News', 'Clip']; empty segments (doubled or trailing slashes) are dropped. */
export const pathSegments = (path: string) => path.split('/').filter((segment) => segment.length > 0);

export const joinPath = (segments: readonly string[]) => `/${segments.join('/')}`;

export const parentPathOf = (path: string) => {
  const segments = pathSegments(path);
  return segments.length > 1 ? joinPath(segments.slice(0, -1)) : null;
};

/** spec3 §3: the number of path segments minus 1; the account's root is level 0. */
export const nodeLevel = (path: string) => pathSegments(path).length - 1;

/** Splits an API path into the account name and the path inside the account ('/' for the root). */
export const splitAccountPath = (path: string) => {
  const [accountName = '', ...rest] = pathSegments(path);
  return { accountName, innerPath: joinPath(rest) };
};

/** The API path of an inner path of an account. */
export const accountPath = (accountName: string, innerPath: string) =>
  innerPath === '/' ? `/${accountName}` : `/${accountName}${innerPath}`;

/** The API path of the folder a node (by its path inside the account) lies in. */
export const folderApiPathOf = (accountName: string, innerNodePath: string) =>
  parentPathOf(accountPath(accountName, innerNodePath)) ?? accountPath(accountName, '/');

/** True when `path` is `ancestor` or lies below it. */
export const isWithin = (path: string, ancestor: string) =>
  path === ancestor || path.startsWith(ancestor === '/' ? '/' : `${ancestor}/`);

/** spec3 §3: ' - Search results' is stripped from names. */
export const displayName = (name: string) =>
  name.endsWith(SEARCH_RESULTS_SUFFIX) ? name.slice(0, -SEARCH_RESULTS_SUFFIX.length) : name;

/** spec3 §3 displayType: sources and sequences as themselves, everything else as a folder or source. */
export const displayTypeOf = (type: NodeType) =>
  type === 'folder' ? 'folder' : type === 'sequence' || type === 'edl' ? 'sequence' : 'source';

/**
 * The node types a type filter shows: the types named and those displayed as a named type (spec3 §9
 * Default displayed node types are display types, so a clip — an edl — shows among sequences).
 */
export const nodeTypesShown = (requested: readonly string[]): NodeType[] =>
  NODE_TYPES.filter((type) => requested.includes(type) || requested.includes(displayTypeOf(type)));

/** The node id the editor opens: five comma-separated parts (spec3 §5 Node ids for the editor). */
export const editorNodeId = (accountId: number, nodeId: number, type: NodeType, mediaId: number | null) =>
  `node,${accountId},${nodeId},${type},${mediaId ?? 0}`;

export type EditorNodeRef = { accountId: number; nodeId: number; type: string; mediaId: number };

/** Reads an editor node id; fewer than 5 parts is the spec's error. */
export const parseEditorNodeId = (id: string): EditorNodeRef => {
  const parts = id.split(',');
  if (parts.length < 5) throw new Error(NODE_MESSAGES.unexpectedNodeId(id));
  const [, accountId, nodeId, type = '', mediaId] = parts;
  return { accountId: Number(accountId), nodeId: Number(nodeId), type, mediaId: Number(mediaId) };
};

/** spec3 §3: artefact urls of the field59 scheme become the metadata entry 'Field59 Key'. */
export const artefactMetadata = (artefacts: readonly { url: string }[]) => {
  const metadata: Record<string, string> = {};
  for (const { url } of artefacts) {
    if (url.toLowerCase().startsWith(FIELD59_SCHEME)) {
      metadata[FIELD59_METADATA_KEY] = url.slice(FIELD59_SCHEME.length).replace(/^\/\//, '');
    }
  }
  return metadata;
};

/**
 * A role's access at a node. A folder hidden from the role ('none') hides everything below it; otherwise
 * the entry for the role nearest the node wins (the node's own first, then its ancestors'), and no entry
 * anywhere means the role's own permissions apply ('edit'). `chain` holds the permissions of the root
 * first and the node last; a null role (the account's managers acting as themselves) is never limited.
 */
export const folderAccessOf = (
  roleId: number | null,
  chain: readonly (readonly FolderPermission[])[],
): FolderAccess => {
  if (roleId === null) return 'edit';
  const entries = chain.map((permissions) => permissions.find((permission) => permission.roleId === roleId));
  if (entries.some((entry) => entry?.access === 'none')) return 'none';
  return entries.findLast((entry) => entry !== undefined)?.access ?? 'edit';
};

/** The role permissions the media tree reads (spec1 roles: canView, canEdit, canLog, canManageAccount). */
export type TreePermissions = ReadonlySet<string>;

export type NodeRights = { canView: boolean; canEdit: boolean; canLog: boolean; canManage: boolean };

/** What a caller may do at a node, from its role's permissions and the folder access there. */
export const nodeRights = (permissions: TreePermissions, access: FolderAccess): NodeRights => {
  const visible = access !== 'none' && permissions.has('canView');
  const writable = visible && access === 'edit';
  return {
    canView: visible,
    canEdit: writable && permissions.has('canEdit'),
    canLog: writable && (permissions.has('canLog') || permissions.has('canEdit')),
    canManage: visible && permissions.has('canManageAccount'),
  };
};

export type TransferCheck = {
  srcPaths: readonly string[];
  dstPath: string;
  dstType: NodeType;
  /** Rights at each source's parent (moving takes it out of there) and at the source itself. */
  srcRights: readonly { atParent: NodeRights; atNode: NodeRights }[];
  dstRights: NodeRights;
};

/**
 * Which transfers are possible (POST /api/nodesTransferType): within one account, into a folder, never
 * a folder into itself; copy needs to see the sources and edit the destination, move also needs to edit
 * where the sources are. Publishing needs publishing buttons at the destination, which folders have not.
 */
export const transferOperations = (check: TransferCheck): TransferOperation[] => {
  const { srcPaths, dstPath, dstType, srcRights, dstRights } = check;
  if (srcPaths.length === 0 || dstType !== 'folder' || !dstRights.canEdit) return [];
  const dstAccount = pathSegments(dstPath)[0];
  if (srcPaths.some((path) => pathSegments(path)[0] !== dstAccount || pathSegments(path).length < 2))
    return [];
  if (srcPaths.some((path) => isWithin(dstPath, path))) return [];
  if (!srcRights.every((rights) => rights.atNode.canView)) return [];
  const operations: TransferOperation[] = ['copy'];
  const alreadyThere = srcPaths.every((path) => parentPathOf(path) === dstPath);
  if (!alreadyThere && srcRights.every((rights) => rights.atParent.canEdit && rights.atNode.canEdit))
    operations.unshift('move');
  return operations;
};

/** The past tense the success message uses ('Node {path} is moved to …'). */
export const transferVerb = (operation: TransferOperation) =>
  operation === 'move' ? 'moved' : operation === 'copy' ? 'copied' : 'published';

/** A free name in a folder: the name itself, else 'name (copy)', 'name (copy 2)', … */
export const freeName = (name: string, taken: ReadonlySet<string>) => {
  if (!taken.has(name.toLowerCase())) return name;
  for (let count = 1; ; count += 1) {
    const candidate = count === 1 ? `${name} (copy)` : `${name} (copy ${count})`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
};

/** spec3 §3 Clip save: thumbPoint in seconds is (imageFrame - inFrame) / fps. */
export const clipThumbPoint = (clip: { imageFrame: number; inFrame: number; fps: number }) =>
  (clip.imageFrame - clip.inFrame) / clip.fps;

/** The media manager's address for an account, optionally opened at a path or as a role (Edit as role). */
export const mediaManagerLink = (accountName: string, options: { path?: string; roleId?: number } = {}) => {
  const query = new URLSearchParams();
  if (options.path) query.set('path', options.path);
  if (options.roleId !== undefined) query.set('role', String(options.roleId));
  const search = query.toString();
  return `/accounts/${encodeURIComponent(accountName)}/media${search ? `?${search}` : ''}`;
};

/**
 * spec3 §3 searchKey: which search a node was found by, so a node of the search results tells itself apart
 * from a folder's child (and from the results of another search); null outside a search.
 */
export const searchKeyOf = (query: {
  search: readonly SearchClause[];
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}) =>
  query.search.length === 0
    ? null
    : JSON.stringify({
        search: query.search.map((clause) => [clause.key, clause.value, clause.match]),
        createdFrom: query.createdFrom ?? null,
        createdTo: query.createdTo ?? null,
      });

/** Values gathered by accumulation are listed with this between them. */
export const ACCUMULATED_VALUE_SEPARATOR = ', ';

/**
 * spec3 §9 Default accumulate metadata keys: a clip or a sequence made of pieces of media gathers these keys
 * from the nodes of its sources, in edl order, each distinct value once (a source that is itself a clip
 * brings its gathered list, whose values count one by one).
 */
export const accumulatedMetadata = (
  sources: readonly Readonly<Record<string, string>>[],
  keys: readonly string[] = ACCUMULATE_METADATA_KEYS,
): Record<string, string> => {
  const gathered: Record<string, string> = {};
  for (const key of keys) {
    const values = new Set<string>();
    for (const source of sources)
      for (const value of (source[key] ?? '').split(ACCUMULATED_VALUE_SEPARATOR))
        if (value.trim()) values.add(value.trim());
    if (values.size > 0) gathered[key] = [...values].join(ACCUMULATED_VALUE_SEPARATOR);
  }
  return gathered;
};
