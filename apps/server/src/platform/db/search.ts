import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** `%text%` for LIKE with the text's own % _ and \ taken literally. */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/** lower(expression) LIKE '%text%'; matches the trigram indexes built on the same lower(...) expressions. */
export const lowerContains = (expression: SQL, text: string | undefined) =>
  text ? sql`lower(${expression}) like ${containsPattern(text)}` : undefined;

/** column LIKE '%text%' on a column that is stored lower-cased (the generated search_text columns). */
export const searchTextContains = (column: SQL | AnyPgColumn, text: string | undefined) =>
  text ? sql`${column} like ${containsPattern(text)}` : undefined;
