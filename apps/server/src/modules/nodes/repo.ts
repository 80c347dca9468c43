import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { accounts } from '../organisation/tables.ts';
import { nodes } from './tables.ts';

export type NodeRow = typeof nodes.$inferSelect;

/** The account's root node ('/', a folder named after the account), made on first use. */
export const ensureAccountRoot = async (db: DbOrTx, accountId: number): Promise<NodeRow> => {
  const [account] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new Error(`account ${accountId} not found`);
  await db
    .insert(nodes)
    .values({ accountId, path: '/', name: account.name, type: 'folder' })
    .onConflictDoNothing({ target: [nodes.accountId, nodes.path] });
  const [root] = await db
    .select()
    .from(nodes)
    .where(and(eq(nodes.accountId, accountId), eq(nodes.path, '/')));
  if (!root) throw new Error('root node not created');
  return root;
};

/** The node at an inner path of an account. */
export const findNodeByPath = async (db: DbOrTx, accountId: number, path: string) => {
  const [row] = await db
    .select()
    .from(nodes)
    .where(and(eq(nodes.accountId, accountId), eq(nodes.path, path)));
  return row;
};
