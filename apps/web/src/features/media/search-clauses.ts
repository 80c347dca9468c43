import { NODE_SEARCH_CLAUSES_MAX, type SearchClause } from '@media/contract';

/** The keys offered by name; any other key typed is a metadata key. */
export const SEARCH_KEY_LABELS = { name: 'Name', text: 'Any text' } as const;

/** 'Name' → name, 'Any text' → text, anything else is the metadata key as typed. */
export const clauseKeyOf = (label: string) => {
  const typed = label.trim();
  const known = Object.entries(SEARCH_KEY_LABELS).find(
    ([, text]) => text.toLowerCase() === typed.toLowerCase(),
  );
  return known ? known[0] : typed;
};

export const clauseKeyLabel = (key: string) =>
  key in SEARCH_KEY_LABELS ? SEARCH_KEY_LABELS[key as keyof typeof SEARCH_KEY_LABELS] : key;

/** The chip of a clause: 'Name: news'. */
export const clauseLabel = (clause: Pick<SearchClause, 'key' | 'value'>) =>
  `${clauseKeyLabel(clause.key)}: ${clause.value}`;

/** Adds a clause unless it is empty, already there, or one too many (the server takes at most 10). */
export const addClause = (clauses: SearchClause[], keyLabel: string, value: string) => {
  const clause: SearchClause = { key: clauseKeyOf(keyLabel), value: value.trim(), match: 'contains' };
  if (!clause.key || !clause.value || clauses.length >= NODE_SEARCH_CLAUSES_MAX) return clauses;
  const same = (other: SearchClause) =>
    other.key === clause.key && other.value.toLowerCase() === clause.value.toLowerCase();
  return clauses.some(same) ? clauses : [...clauses, clause];
};

export type SearchState = { clauses: SearchClause[]; createdFrom: string | null; createdTo: string | null };

export const NO_SEARCH: SearchState = { clauses: [], createdFrom: null, createdTo: null };

/** A search is on while it has a clause or a created-date bound. */
export const isSearching = (search: SearchState) =>
  search.clauses.length > 0 || search.createdFrom !== null || search.createdTo !== null;
