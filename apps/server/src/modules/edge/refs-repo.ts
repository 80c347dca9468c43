import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { arrivalsFolders } from '../arrivals/tables.ts';
import { accounts, sites, workflows } from '../organisation/tables.ts';

export const findAccountRef = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({ id: accounts.id, siteId: accounts.siteId })
    .from(accounts)
    .where(eq(accounts.id, id));
  return row;
};

export const findArrivalsFolderRef = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({ id: arrivalsFolders.id, accountId: arrivalsFolders.accountId })
    .from(arrivalsFolders)
    .where(eq(arrivalsFolders.id, id));
  return row;
};

export const findWorkflowRef = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({ id: workflows.id, accountId: workflows.accountId })
    .from(workflows)
    .where(eq(workflows.id, id));
  return row;
};

export const siteExists = async (db: DbOrTx, id: number) =>
  (await db.select({ id: sites.id }).from(sites).where(eq(sites.id, id))).length > 0;
