/** Metadata export and import of an account's media (spec1 §2, §4, §7): for the account's managers. */
import { PassThrough, Readable } from 'node:stream';
import {
  accountPath,
  CHANNELS,
  type FileColumn,
  METADATA_MESSAGES,
  METADATA_SUMMARY_LIST_LIMIT,
  type MetadataExportQuery,
  type MetadataImportResult,
  type MetadataImportSummary,
  metadataExportHeader,
  metadataRowChanges,
  planMetadataImport,
  splitAccountPath,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import Papa from 'papaparse';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { requireRight } from '../access/service.ts';
import { accountFileColumns } from '../config/columns.ts';
import { accounts } from '../organisation/tables.ts';
import * as repo from './repo.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

/** Rows read or written per query: big enough to be quick, small enough that memory stays flat. */
const PAGE_ROWS = 2000;
/** Node ids per live-update change, so that a large import announces itself in rows of a sane size. */
const PUBLISH_IDS = 1000;

const requireAccountManager = async (ctx: AppContext, actor: Actor, accountId: number) => {
  await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id: accountId });
  const [account] = await ctx.db
    .select({ id: accounts.id, name: accounts.name })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!account) throw notFound('Account');
  return account;
};

/** The columns an export asks for (internal names, comma-separated), in the account's order. */
const chosenColumns = (columns: FileColumn[], asked: string | undefined) => {
  const names = (asked ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return columns;
  const known = new Set(columns.map((column) => column.internalName));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length) {
    const message = `Unknown metadata column: ${unknown.join(', ')}`;
    throw badRequest(message, { metadata: message });
  }
  return columns.filter((column) => names.includes(column.internalName));
};

/** Every media node of the account, page by page, as the export's rows. */
async function* exportRows(ctx: AppContext, account: { id: number; name: string }, columns: FileColumn[]) {
  let after: string | null = null;
  for (;;) {
    const page = await repo.findMediaNodesAfter(ctx.db, account.id, after, PAGE_ROWS);
    yield page.map((node) => [
      node.id,
      accountPath(account.name, node.path),
      node.name,
      node.type,
      ...columns.map((column) => node.metadata[column.internalName] ?? ''),
    ]);
    const last = page.at(-1);
    if (!last || page.length < PAGE_ROWS) return;
    after = last.path;
  }
}

const csvStream = (header: string[], rows: AsyncGenerator<(string | number)[][]>) =>
  Readable.from(
    (async function* () {
      // The byte-order mark tells spreadsheet programs the file is UTF-8.
      yield `\uFEFF${Papa.unparse([header], { newline: '\r\n' })}\r\n`;
      for await (const page of rows) {
        if (page.length) yield `${Papa.unparse(page, { newline: '\r\n', escapeFormulae: true })}\r\n`;
      }
    })(),
  );

/** An XLSX file written row by row; exceljs is loaded at the first (it cost every start ~0.5 s of CPU). */
const xlsxStream = async (header: string[], rows: AsyncGenerator<(string | number)[][]>) => {
  const { default: ExcelJS } = await import('exceljs');
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('Metadata');
  void (async () => {
    sheet.addRow(header).commit();
    for await (const page of rows) for (const row of page) sheet.addRow(row).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
};

export const EXPORT_CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** GET /api/media?format=: the account's media with their metadata, streamed page by page. */
export const exportMetadata = async ({ ctx, actor, query }: Call<{ query: MetadataExportQuery }>) => {
  const account = await requireAccountManager(ctx, actor, query.accountId);
  const columns = chosenColumns(await accountFileColumns(ctx.db, account.id), query.metadata);
  const header = metadataExportHeader(columns);
  const rows = exportRows(ctx, account, columns);
  return {
    fileName: `${account.name} metadata.${query.format}`,
    contentType: EXPORT_CONTENT_TYPES[query.format],
    stream: query.format === 'csv' ? csvStream(header, rows) : await xlsxStream(header, rows),
  };
};

const emptySummary = (): MetadataImportSummary => ({
  rows: 0,
  nodes: 0,
  changes: 0,
  columns: [],
  changed: [],
  unknownNodes: [],
  unknownNodeCount: 0,
  unknownColumns: [],
  readOnlyColumns: [],
});

const parseCsv = (csv: string) => {
  const parsed = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  // The delimiter is guessed (a spreadsheet may save with semicolons); a one-column file has none to find.
  const problem = parsed.errors.find((error) => error.type !== 'Delimiter');
  if (problem) {
    const where = problem.row === undefined ? '' : ` (row ${problem.row + 1})`;
    const message = `CSV parse error: ${problem.message}${where}`;
    throw badRequest(message, { csv: message });
  }
  const [header, ...rows] = parsed.data;
  if (!header || header.every((cell) => cell.trim() === '')) throw badRequest(METADATA_MESSAGES.empty);
  return { header, rows };
};

/** Reads the file against the account's nodes: what changes, and what is not understood. */
const planChanges = async (db: DbOrTx, account: { id: number; name: string }, csv: string) => {
  const { header, rows } = parseCsv(csv);
  const plan = planMetadataImport(header, await accountFileColumns(db, account.id));
  if (plan.idIndex === undefined && plan.pathIndex === undefined)
    throw badRequest(METADATA_MESSAGES.noIdentity);
  const summary = emptySummary();
  summary.rows = rows.length;
  summary.unknownColumns = plan.unknownColumns;
  // Per node: what it holds now, and what the file's rows make of it.
  const writes = new Map<number, repo.MetadataWrite & { path: string; before: Record<string, string> }>();
  const perColumn = new Map<string, number>();
  const readOnly = new Set<string>();
  const cell = (row: string[], index: number | undefined) =>
    index === undefined ? '' : (row[index] ?? '').trim();

  for (let start = 0; start < rows.length; start += PAGE_ROWS) {
    const page = rows.slice(start, start + PAGE_ROWS);
    const ids = page.map((row) => cell(row, plan.idIndex)).filter((id) => /^\d{1,9}$/.test(id));
    const paths = page
      .filter((row) => cell(row, plan.idIndex) === '')
      .map((row) => splitAccountPath(cell(row, plan.pathIndex)))
      .filter((place) => place.accountName === account.name && place.innerPath !== '/')
      .map((place) => place.innerPath);
    const found = [
      ...(await repo.findMediaNodesByIds(db, account.id, ids.map(Number))),
      ...(await repo.findMediaNodesByPaths(db, account.id, paths)),
    ];
    const byId = new Map(found.map((node) => [String(node.id), node]));
    const byPath = new Map(found.map((node) => [accountPath(account.name, node.path), node]));
    page.forEach((row, offset) => {
      const id = cell(row, plan.idIndex);
      const path = cell(row, plan.pathIndex);
      const node = id === '' ? byPath.get(path) : byId.get(id);
      if (!node) {
        summary.unknownNodeCount++;
        if (summary.unknownNodes.length < METADATA_SUMMARY_LIST_LIMIT)
          summary.unknownNodes.push({ row: start + offset + 2, id, path });
        return;
      }
      // A node named by several rows takes what its last row says.
      const pending = writes.get(node.id);
      const current = pending ? { ...node.metadata, ...pending.set } : node.metadata;
      for (const key of pending?.remove ?? []) delete current[key];
      const { editable, readOnly: notEditable } = metadataRowChanges(current, row, plan);
      for (const header of notEditable) readOnly.add(header);
      if (editable.length === 0) return;
      const write = pending ?? {
        id: node.id,
        path: accountPath(account.name, node.path),
        before: node.metadata,
        set: {} as Record<string, string>,
        remove: [] as string[],
      };
      for (const { key, change } of editable) {
        write.remove = write.remove.filter((removed) => removed !== key);
        delete write.set[key];
        if (change.to === '') write.remove.push(key);
        else write.set[key] = change.to;
      }
      writes.set(node.id, write);
    });
  }

  const headerOf = new Map(plan.columns.map(({ header, column }) => [column.internalName, header]));
  const effective: repo.MetadataWrite[] = [];
  for (const write of writes.values()) {
    const { before } = write;
    // A later row may have put back what an earlier one changed.
    const changes = [
      ...Object.entries(write.set).map(([key, to]) => ({ key, from: before[key] ?? '', to })),
      ...write.remove.map((key) => ({ key, from: before[key] ?? '', to: '' })),
    ].filter((change) => change.from !== change.to);
    if (changes.length === 0) continue;
    effective.push({ id: write.id, set: write.set, remove: write.remove });
    summary.nodes++;
    summary.changes += changes.length;
    for (const { key } of changes) {
      const column = headerOf.get(key) ?? key;
      perColumn.set(column, (perColumn.get(column) ?? 0) + 1);
    }
    if (summary.changed.length < METADATA_SUMMARY_LIST_LIMIT)
      summary.changed.push({
        id: write.id,
        path: write.path,
        changes: changes.map(({ key, from, to }) => ({ column: headerOf.get(key) ?? key, from, to })),
      });
  }
  summary.columns = plan.columns
    .filter(({ header }) => perColumn.has(header))
    .map(({ header }) => ({ column: header, changes: perColumn.get(header) ?? 0 }));
  summary.readOnlyColumns = plan.columns.map(({ header }) => header).filter((header) => readOnly.has(header));
  return { summary, writes: effective };
};

/**
 * POST /api/mediaUpdate: a dry run says what the file would change; the import changes it all in one
 * transaction, or nothing.
 */
export const importMetadata = async ({
  ctx,
  actor,
  accountId,
  dryRun,
  csv,
}: Call<{ accountId: number; dryRun: boolean; csv: string }>): Promise<MetadataImportResult> => {
  const account = await requireAccountManager(ctx, actor, accountId);
  if (dryRun) {
    const { summary, writes } = await planChanges(ctx.db, account, csv);
    return { status: writes.length ? 'dry run' : 'no changes', summary };
  }
  const { summary, writes } = await ctx.db.transaction(async (tx) => {
    const planned = await planChanges(tx, account, csv);
    for (let start = 0; start < planned.writes.length; start += PAGE_ROWS)
      await repo.writeMetadata(tx, account.id, planned.writes.slice(start, start + PAGE_ROWS));
    return planned;
  });
  if (writes.length === 0) return { status: 'no changes', summary };
  repo
    .mergeSearchIndexPendingList(ctx.db)
    .catch((error: unknown) =>
      ctx.log.warn({ err: error }, 'merging the search index after a metadata import failed'),
    );
  for (let start = 0; start < writes.length; start += PUBLISH_IDS)
    await ctx.publish(
      CHANNELS.nodes(account.id),
      writes.slice(start, start + PUBLISH_IDS).map((write) => write.id),
    );
  return { status: 'done', summary };
};
