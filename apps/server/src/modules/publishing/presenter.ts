import { buttonProblems, isComplicated, type PublishButton, type PublishIcon } from '@media/contract';
import type { ButtonRow, IconRow } from './repo.ts';

/**
 * A button as the client reads it. `complicated`, `bad` and `problems` always come from the stored
 * phases; without phases=expand the phases themselves are left out (`phases: []`), so a summary list
 * stays small and still shows which buttons are bad.
 */
export const toButton = (row: ButtonRow, expand = true): PublishButton => {
  const problems = buttonProblems(row);
  return {
    id: row.id,
    accountId: row.accountId,
    siteId: row.siteId,
    name: row.name,
    description: row.description,
    keepFor: row.keepFor,
    enabled: row.enabled,
    iconId: row.iconId,
    phases: expand ? row.phases : [],
    restrictions: row.restrictions,
    location: row.location,
    complicated: isComplicated(row),
    bad: problems.length > 0,
    problems,
    createdAt: row.createdAt.toISOString(),
  };
};

export const iconUrl = (id: number) => `/api/publishIcons/${id}/image`;

/** `from` is 'account' for the context's own icons and 'other' for those an account gets from its site. */
export const toIcon = (row: IconRow, from: PublishIcon['from']): PublishIcon => ({
  id: row.id,
  from,
  name: row.name,
  url: iconUrl(row.id),
});
