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
