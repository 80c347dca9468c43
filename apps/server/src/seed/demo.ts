import { ROLE_ACCOUNT_MANAGER, ROLE_EDITOR, ROLE_LOGGER, ROLE_VIEWER } from '@media/contract';
import { count } from 'drizzle-orm';
import { resellers } from '../modules/organisation/tables.ts';
import type { Db } from '../platform/db/client.ts';
import {
  grantAccountAccess,
  grantManagerOf,
  makeAccount,
  makeReseller,
  makeSite,
  makeSiteGroup,
  makeUser,
} from './factories.ts';

export type DemoLogin = { username: string; role: string };

const ACCOUNT_ROLES = [ROLE_ACCOUNT_MANAGER, ROLE_EDITOR, ROLE_LOGGER, ROLE_VIEWER] as const;

/**
 * The demo data set of DESIGN.md, as far as the tables exist: one reseller, a site group with two sites,
 * four accounts, and users in every role. Later areas extend this function.
 */
export const seedDemo = async (db: Db, password: string): Promise<DemoLogin[] | undefined> =>
  db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(resellers);
    if ((existing?.n ?? 0) > 0) return undefined;
    const logins: DemoLogin[] = [];
    const person = async (username: string, fullname: string, role: string) => {
      const user = await makeUser(tx, {
        username,
        fullname,
        email: `${username}@demo.example`,
        emailverified: true,
        password,
      });
      logins.push({ username, role });
      return user;
    };

    const reseller = await makeReseller(tx, { name: 'Northwind Media' });
    const siteGroup = await makeSiteGroup(tx, { name: 'Northwind Europe', resellerId: reseller.id });
    const london = await makeSite(tx, { name: 'London', siteGroupId: siteGroup.id });
    const berlin = await makeSite(tx, { name: 'Berlin', siteGroupId: siteGroup.id });
    const accounts = [
      await makeAccount(tx, { name: 'evening-news', siteId: london.id }),
      await makeAccount(tx, { name: 'sports-desk', siteId: london.id }),
      await makeAccount(tx, { name: 'documentaries', siteId: berlin.id }),
      await makeAccount(tx, { name: 'archive', siteId: berlin.id }),
    ];

    const resellerManager = await person(
      'reseller.manager',
      'Rita Reseller',
      'reseller manager (Northwind Media)',
    );
    await grantManagerOf(tx, resellerManager.id, 'reseller', reseller.id);
    const groupManager = await person(
      'europe.manager',
      'Gustav Group',
      'site group manager (Northwind Europe)',
    );
    await grantManagerOf(tx, groupManager.id, 'sitegroup', siteGroup.id);
    for (const site of [london, berlin]) {
      const manager = await person(
        `${site.name.toLowerCase()}.manager`,
        `${site.name} Site Manager`,
        `site manager (${site.name})`,
      );
      await grantManagerOf(tx, manager.id, 'site', site.id);
    }
    for (const account of accounts) {
      for (const role of ACCOUNT_ROLES) {
        const short = role === ROLE_ACCOUNT_MANAGER ? 'manager' : role.toLowerCase();
        const user = await person(
          `${account.name}.${short}`,
          `${account.name} ${role}`,
          `${role} (${account.name})`,
        );
        await grantAccountAccess(tx, user.id, account.id, role);
      }
    }
    await person('no.rights', 'Nora Nobody', 'signed-in user with no rights');
    return logins;
  });
