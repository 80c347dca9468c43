import { z } from 'zod';

export const fileColumnSchema = z.object({
  displayName: z.string(),
  internalName: z.string(),
  hidden: z.boolean(),
  searchable: z.boolean(),
  editable: z.boolean(),
});
export type FileColumn = z.infer<typeof fileColumnSchema>;

export const loggingColumnSchema = z.object({
  displayName: z.string(),
  internalName: z.string(),
  hidden: z.boolean(),
  title: z.boolean(),
  media: z.boolean(),
  presets: z.array(z.string()),
});
export type LoggingColumn = z.infer<typeof loggingColumnSchema>;

const fileColumn = (displayName: string, internalName: string, hidden: boolean): FileColumn => ({
  displayName,
  internalName,
  hidden,
  searchable: false,
  editable: false,
});

const loggingColumn = (displayName: string, internalName: string): LoggingColumn => ({
  displayName,
  internalName,
  hidden: false,
  title: false,
  media: false,
  presets: [],
});

/** spec1 §3: the default file columns. */
export const DEFAULT_FILE_COLUMNS: FileColumn[] = [
  fileColumn('Disk label', '_IMPORTDISKLAB', false),
  fileColumn('Start timecode', 'starttimecode', true),
  fileColumn('End timecode', 'endtimecode', true),
  fileColumn('Source locator', 'sourcelocator', true),
];

/** spec1 §3: the default logging columns. */
export const DEFAULT_LOGGING_COLUMNS: LoggingColumn[] = [
  loggingColumn('Shot', 'shot'),
  loggingColumn('Sync', 'sync'),
];

export const COLUMN_KINDS = ['file', 'logging'] as const;
export type ColumnKind = (typeof COLUMN_KINDS)[number];
/** The path segments of spec1 §7: `/fileColumns`, `/defaultFileColumns` and the logging pair. */
export const COLUMN_PATHS: Record<ColumnKind, { own: string; defaults: string }> = {
  file: { own: 'fileColumns', defaults: 'defaultFileColumns' },
  logging: { own: 'loggingColumns', defaults: 'defaultLoggingColumns' },
};
export const COLUMNS_MAX = 200;
const COLUMN_NAME_MAX = 100;

export const MSG_COLUMNS_SAVED = 'Metadata columns have been saved successfully';
export const MSG_METADATA_INCOMPLETE = 'Metadata incomplete';
export const MSG_METADATA_DUPLICATED = 'Metadata duplicated';
export const MSG_EMPTY_COLUMN_LIST = 'You cannot have an empty list of metadata columns.';

/** spec1 §2: the Default choice names what it inherits from. */
export const columnsInheritLabel = (context: 'site' | 'account') =>
  context === 'site' ? 'Default (inherit from cloud)' : 'Default (inherit from site)';

const columnName = z.string().trim().max(COLUMN_NAME_MAX);
const storedFileColumn = fileColumnSchema.extend({ displayName: columnName, internalName: columnName });
const storedLoggingColumn = loggingColumnSchema.extend({
  displayName: columnName,
  internalName: columnName,
  presets: z.array(z.string().trim().min(1).max(COLUMN_NAME_MAX)).max(200),
});
export type AnyColumn = FileColumn | LoggingColumn;

export const fileColumnSetSchema = z.object({
  columns: z.array(storedFileColumn).max(COLUMNS_MAX),
  autoInherit: z.boolean(),
});
export const loggingColumnSetSchema = z.object({
  columns: z.array(storedLoggingColumn).max(COLUMNS_MAX),
  autoInherit: z.boolean(),
});
export type ColumnSet<K extends ColumnKind = ColumnKind> = {
  columns: K extends 'file' ? FileColumn[] : LoggingColumn[];
  autoInherit: boolean;
};
/** A saved set as the API answers it: one kind's columns throughout. */
export type AnyColumnSet = z.infer<typeof fileColumnSetSchema> | z.infer<typeof loggingColumnSetSchema>;
export const columnSetSchemas = { file: fileColumnSetSchema, logging: loggingColumnSetSchema } as const;

/** spec1 §5: why a list cannot be saved (empty or a name missing; a name repeated), or undefined. */
export const columnsProblem = (columns: readonly Pick<AnyColumn, 'displayName' | 'internalName'>[]) => {
  if (columns.length === 0 || columns.some((c) => !c.displayName.trim() || !c.internalName.trim()))
    return MSG_METADATA_INCOMPLETE;
  const repeats = (names: string[]) =>
    new Set(names.map((n) => n.trim().toLowerCase())).size !== names.length;
  if (repeats(columns.map((c) => c.displayName)) || repeats(columns.map((c) => c.internalName)))
    return MSG_METADATA_DUPLICATED;
  return undefined;
};

/** spec1 §5: presets are typed as a comma-separated list. */
export const parsePresets = (text: string) =>
  text
    .split(',')
    .map((preset) => preset.trim())
    .filter(Boolean);
export const formatPresets = (presets: readonly string[]) => presets.join(', ');

/** spec1 §3: a new column has empty names, every flag off and no presets. */
export const newColumn = <K extends ColumnKind>(kind: K): ColumnSet<K>['columns'][number] =>
  (kind === 'file'
    ? { displayName: '', internalName: '', hidden: false, searchable: false, editable: false }
    : {
        displayName: '',
        internalName: '',
        hidden: false,
        title: false,
        media: false,
        presets: [],
      }) as ColumnSet<K>['columns'][number];
