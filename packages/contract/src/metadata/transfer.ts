/**
 * Metadata export and import (spec1 §2, §3, §4, §5, §7, §8): the spreadsheet an account's managers download,
 * edit and send back. The export's header is the import's vocabulary: the identity columns, then one column
 * per file column of the account, named by its display name.
 */
import { z } from 'zod';
import type { FileColumn } from '../columns/defaults.ts';
import { idTextSchema } from '../http/input.ts';

export const METADATA_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type MetadataExportFormat = (typeof METADATA_EXPORT_FORMATS)[number];

/** GET /api/media?format=xlsx|csv&accountId=&metadata= */
export const metadataExportQuerySchema = z.object({
  format: z.enum(METADATA_EXPORT_FORMATS),
  accountId: idTextSchema,
  /**
   * Which file columns, by internal name, comma-separated; empty or absent: all the account's file columns
   * (hidden ones too: the file is for editing, not for viewing).
   */
  metadata: z.string().max(10_000).optional(),
});
export type MetadataExportQuery = z.infer<typeof metadataExportQuerySchema>;

/** POST /api/mediaUpdate?format=json&accountId=&dryRun= */
export const metadataImportQuerySchema = z.object({
  format: z.literal('json'),
  accountId: idTextSchema,
  dryRun: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

/** The largest CSV body the import takes (a 100k-row export of a few columns is a few megabytes). */
export const METADATA_IMPORT_MAX_BYTES = 64 * 1024 * 1024;
/** How many changed nodes and unknown rows the summary lists one by one; the counts are always whole. */
export const METADATA_SUMMARY_LIST_LIMIT = 500;

/** The columns that say which node a row is; never changed by an import. */
export const METADATA_IDENTITY_HEADERS = ['Id', 'Path', 'Name', 'Type'] as const;

export const METADATA_IMPORT_STATUSES = ['no changes', 'dry run', 'done'] as const;
export type MetadataImportStatus = (typeof METADATA_IMPORT_STATUSES)[number];

const fieldChangeSchema = z.object({ column: z.string(), from: z.string(), to: z.string() });
export type MetadataFieldChange = z.infer<typeof fieldChangeSchema>;

export const metadataImportSummarySchema = z.object({
  /** Data rows read. */
  rows: z.number().int(),
  /** Nodes whose metadata changes, and fields changed over all of them. */
  nodes: z.number().int(),
  changes: z.number().int(),
  /** Fields changed per column, in the file's order. */
  columns: z.array(z.object({ column: z.string(), changes: z.number().int() })),
  /** The changed nodes with their changes, the first METADATA_SUMMARY_LIST_LIMIT of them. */
  changed: z.array(z.object({ id: z.number().int(), path: z.string(), changes: z.array(fieldChangeSchema) })),
  /** Rows naming no node of the account (by Id, or by Path when Id is empty). */
  unknownNodes: z.array(z.object({ row: z.number().int(), id: z.string(), path: z.string() })),
  unknownNodeCount: z.number().int(),
  /** Headers that are neither identity nor file columns of the account: their values are not read. */
  unknownColumns: z.array(z.string()),
  /** File columns that may not be edited (spec1 column flags) whose values in the file differ: left as they are. */
  readOnlyColumns: z.array(z.string()),
});
export type MetadataImportSummary = z.infer<typeof metadataImportSummarySchema>;

export const metadataImportResultSchema = z.object({
  status: z.enum(METADATA_IMPORT_STATUSES),
  summary: metadataImportSummarySchema,
});
export type MetadataImportResult = z.infer<typeof metadataImportResultSchema>;

export const METADATA_MESSAGES = {
  confirm: 'Really do these changes:',
  complete: 'import complete',
  noChanges: 'No changes to do',
  noIdentity: 'The file has neither an Id nor a Path column',
  empty: 'The file is empty',
  failedRequest: (dryRun: boolean, detail: string) =>
    `Failed request to cloud for ${dryRun ? 'dry run of import' : 'import'}: ${detail}`,
  unexpectedStatus: (dryRun: boolean, status: string) =>
    `Unexpected status from ${dryRun ? 'dry run of import' : 'import'}: ${status}`,
} as const;

/** The header of an export: identity columns, then the file columns' display names. */
export const metadataExportHeader = (columns: readonly FileColumn[]) => [
  ...METADATA_IDENTITY_HEADERS,
  ...columns.map((column) => column.displayName),
];

const headerKey = (text: string) => text.trim().toLowerCase();

export type ImportColumn = { index: number; header: string; column: FileColumn };
export type ImportPlan = {
  idIndex: number | undefined;
  pathIndex: number | undefined;
  /** File columns named by the header (display name first, else internal name), editable or not. */
  columns: ImportColumn[];
  unknownColumns: string[];
};

/** Reads an import's header against the account's file columns. */
export const planMetadataImport = (
  header: readonly string[],
  fileColumns: readonly FileColumn[],
): ImportPlan => {
  const identity = new Set(METADATA_IDENTITY_HEADERS.map(headerKey));
  const byDisplay = new Map(fileColumns.map((column) => [headerKey(column.displayName), column]));
  const byInternal = new Map(fileColumns.map((column) => [headerKey(column.internalName), column]));
  const plan: ImportPlan = { idIndex: undefined, pathIndex: undefined, columns: [], unknownColumns: [] };
  const taken = new Set<string>();
  header.forEach((text, index) => {
    const key = headerKey(text);
    if (key === 'id') plan.idIndex ??= index;
    else if (key === 'path') plan.pathIndex ??= index;
    if (identity.has(key)) return;
    const column = byDisplay.get(key) ?? byInternal.get(key);
    // A column named twice is read from its first place only.
    if (column && !taken.has(column.internalName)) {
      taken.add(column.internalName);
      plan.columns.push({ index, header: text.trim(), column });
    } else if (!column && key !== '') plan.unknownColumns.push(text.trim());
  });
  return plan;
};

/**
 * A spreadsheet would run a cell that begins like a formula: the CSV export writes such a value after a
 * quote (papaparse's escapeFormulae), and the import takes that quote off again.
 */
export const FORMULA_START = /^'[=+\-@\t\r]/;
export const unescapeFormula = (value: string) => (FORMULA_START.test(value) ? value.slice(1) : value);

/** What a row asks of a node's metadata: the fields that differ, with the value they get ('' removes). */
export const metadataRowChanges = (
  current: Readonly<Record<string, string>>,
  row: readonly string[],
  plan: ImportPlan,
): { editable: { key: string; change: MetadataFieldChange }[]; readOnly: string[] } => {
  const editable: { key: string; change: MetadataFieldChange }[] = [];
  const readOnly: string[] = [];
  for (const { index, header, column } of plan.columns) {
    const cell = row[index];
    // A row cut short says nothing of its missing cells; an empty cell removes the value.
    if (cell === undefined) continue;
    const to = unescapeFormula(cell.trim());
    const from = current[column.internalName] ?? '';
    if (to === from) continue;
    if (column.editable) editable.push({ key: column.internalName, change: { column: header, from, to } });
    else readOnly.push(header);
  }
  return { editable, readOnly };
};
