import type { Actor } from '../../platform/auth/actor.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import * as repo from './repo.ts';

export const listRoles = async (options: { db: Db; actor: Actor; offset: number; limit: number }) => {
  // Any signed-in user may read the role names; the actor's presence is the check.
  void options.actor;
  return repo.findCloudRolesPage(options.db, options.offset, options.limit);
};

export const ensureDefaultRoles = (db: DbOrTx) => repo.insertMissingDefaultRoles(db);

export const grantManager = (
  db: DbOrTx,
  grant: {
    userId: number;
    scope: 'admin' | 'reseller' | 'sitegroup' | 'site';
    scopeId?: number | null;
    roleId?: number | null;
  },
) => repo.insertManagerGrant(db, grant);
