import { accountPath, joinPath, type NodeListing, pathSegments } from '@media/contract';

/**
 * The folder a media manager address names: `?path=` as an API path of the account (`/{accountName}/…`)
 * or as a path inside it (`/News`); anything else, or nothing, is the account's root.
 */
export const selectedPathOf = (accountName: string, raw: string | null) => {
  const root = accountPath(accountName, '/');
  if (!raw) return root;
  const segments = pathSegments(raw);
  if (segments.length === 0) return root;
  if (segments[0] === accountName) return joinPath(segments);
  return accountPath(accountName, joinPath(segments));
};

/** The folders from the account's root down to the one shown, for the breadcrumbs. */
export const breadcrumbsOf = (listing: Pick<NodeListing, 'ancestors' | 'node'>) =>
  [...listing.ancestors, listing.node].map((node) => ({ path: node.path, name: node.name }));

/** Every folder from the root to `path`, the path included: they open in the tree when it is selected. */
export const foldersAlong = (path: string) => {
  const segments = pathSegments(path);
  return segments.map((_, index) => joinPath(segments.slice(0, index + 1)));
};
