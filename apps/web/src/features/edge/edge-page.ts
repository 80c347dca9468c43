import {
  EDGE_MESSAGES,
  type EdgeContext,
  errorText,
  type Me,
  parseEdgeContext,
  type Site,
} from '@media/contract';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client.ts';

/** The reason in a notification (spec2 §8): the server's message and code, else the plain message. */
export const reasonOf = (error: unknown) => errorText(error instanceof ApiError ? error.message : error);

/** The `context` of an edge page address (spec2 §2), or the spec's error for any other value. */
export const useEdgePageContext = (): { context: EdgeContext; error?: undefined } | { error: string } => {
  const [params] = useSearchParams();
  try {
    return { context: parseEdgeContext(params.get('context')) };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

/** The sites a user may put an edge server on: those they manage, directly or through a group or reseller. */
export const managedSites = (sites: readonly Site[], me: Me) =>
  me.rights.admin.length > 0
    ? [...sites]
    : sites.filter(
        (site) =>
          me.rights.sites.includes(site.id) ||
          me.rights.siteGroups.includes(site.siteGroupId) ||
          me.rights.resellers.includes(site.resellerId),
      );

/** `#/{id}` in the page address selects that card (spec2 §2). */
export const hashId = (hash: string) => {
  const match = /^#\/(\d+)$/.exec(hash);
  return match ? Number(match[1]) : undefined;
};

let draftSequence = 0;
/** A locally created card carries a temporary id until it is created (spec2 §3). */
export const temporaryId = () => `new-${++draftSequence}`;

/** The name check of a service or endpoint card: required, at most 100 characters. */
export const cardNameError = (name: string) =>
  name.trim() === '' ? EDGE_MESSAGES.required : name.length > 100 ? EDGE_MESSAGES.nameTooLong : undefined;
