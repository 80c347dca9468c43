import {
  CSV_REQUIRED_COLUMNS,
  MSG_CSV_FORMAT_ERROR,
  MSG_CSV_PARSE_ERROR,
  MSG_EMAIL_USED_IN_BATCH,
  USER_IMPORT_CHUNK,
  type UserImportResult,
  type UserImportRow,
} from '@media/contract';
import Papa from 'papaparse';

export type ParsedUsers = { ok: true; rows: UserImportRow[] } | { ok: false; error: string };

/**
 * spec1 §5: a header row with fullname, company and email (username optional, any order, any case),
 * empty lines skipped; a missing column or a parse error answers the spec's message.
 */
export const parseUsersCsv = (text: string): ParsedUsers => {
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header) => header.trim().toLowerCase(),
  });
  const columns = parsed.meta.fields ?? [];
  if (!CSV_REQUIRED_COLUMNS.every((column) => columns.includes(column)))
    return { ok: false, error: MSG_CSV_FORMAT_ERROR };
  // A row with too few or too many fields is reported, as papaparse does, with its row number.
  const [problem] = parsed.errors;
  if (problem)
    return { ok: false, error: MSG_CSV_PARSE_ERROR(`${problem.message} (row ${(problem.row ?? 0) + 2})`) };
  const rows = parsed.data.map((record) => ({
    fullname: (record.fullname ?? '').trim(),
    company: (record.company ?? '').trim(),
    email: (record.email ?? '').trim(),
    ...(record.username?.trim() ? { username: record.username.trim() } : {}),
  }));
  return { ok: true, rows };
};

/** The rows in chunks of 100, the most one call to POST /api/users takes. */
export const inChunks = <T>(rows: T[], size: number = USER_IMPORT_CHUNK): T[][] => {
  const chunks: T[][] = [];
  for (let start = 0; start < rows.length; start += size) chunks.push(rows.slice(start, start + size));
  return chunks;
};

/**
 * The server checks repeated emails within one call of 100; a file's later rows repeating an email of an
 * earlier chunk are marked failed here, so the whole file follows the rule.
 */
export const markRepeatedEmails = (results: UserImportResult[]): UserImportResult[] => {
  const seen = new Set<string>();
  return results.map((result) => {
    const key = result.email.trim().toLowerCase();
    if (key && seen.has(key) && result.success)
      return { ...result, success: false, message: MSG_EMAIL_USED_IN_BATCH };
    if (key && result.success) seen.add(key);
    return result;
  });
};
