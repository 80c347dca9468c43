import {
  extraDataStoredKey,
  INVITE_DAYS,
  ROLE_ACCOUNT_MANAGER,
  ROLE_EDITOR,
  ROLE_LOGGER,
  ROLE_VIEWER,
} from '@media/contract';
import { count, eq, like } from 'drizzle-orm';
import { accountAccess, invites } from '../modules/access/tables.ts';
import { sessions } from '../modules/auth/tables.ts';
import {
  extraData,
  ingestFormats,
  keyboardExpansionMaps,
  keyShortcutDefaults,
  keyShortcutSets,
} from '../modules/config/tables.ts';
import { resellers, workflows } from '../modules/organisation/tables.ts';
import { users } from '../modules/users/tables.ts';
import { randomToken, sha256 } from '../platform/crypto.ts';
import type { Db, Tx } from '../platform/db/client.ts';
import type { FileStore } from '../platform/storage.ts';
import { seedDemoEdge } from './demo-edge.ts';
import { seedDemoMedia } from './demo-media.ts';
import { seedDemoPublishing } from './demo-publishing.ts';
import {
  findRoleByName,
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
export const seedDemo = async (
  db: Db,
  password: string,
  options: { files?: FileStore } = {},
): Promise<DemoLogin[] | undefined> =>
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
    const contact = (productionName: string, contactName: string, limit: number | null) => ({
      productionName,
      department: 'Production',
      contactName,
      contactEmail: `${contactName.split(' ')[0]?.toLowerCase()}@demo.example`,
      contactCompany: 'Northwind Media',
      contactPhone: '+44 20 7946 0000',
      welcomeMessage: `Welcome to ${productionName}.`,
      concurrentUserLimit: limit,
    });
    const accounts = [
      await makeAccount(tx, {
        name: 'evening-news',
        siteId: london.id,
        ...contact('Evening News', 'Erin Ellis', 10),
      }),
      await makeAccount(tx, {
        name: 'sports-desk',
        siteId: london.id,
        ...contact('Sports Desk', 'Sam Stone', null),
      }),
      await makeAccount(tx, {
        name: 'documentaries',
        siteId: berlin.id,
        maxVideo: '1920x1080',
        ...contact('Documentaries', 'Dora Diaz', 5),
      }),
      await makeAccount(tx, { name: 'archive', siteId: berlin.id, ...contact('Archive', 'Arno Alt', null) }),
    ];
    for (const account of accounts)
      await tx.insert(workflows).values([
        { accountId: account.id, name: 'Proxy only' },
        { accountId: account.id, name: 'Proxy and archive' },
      ]);
    await seedDemoConfiguration(tx, { accounts, sites: [london, berlin] });

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
    await seedDemoEdge(tx, {
      accounts,
      sites: [london, berlin],
      siteEdgeOwner: 'london.manager',
      personalEdgeOwner: 'evening-news.manager',
      files: options.files,
    });
    await seedDemoMedia(tx, { accounts, files: options.files });
    await seedDemoPublishing(tx, { accounts, siteId: london.id });

    // Open invitations and sessions opened in the accounts (from elsewhere) so those lists have something to show.
    const editorRole = await findRoleByName(tx, ROLE_EDITOR);
    const viewerRole = await findRoleByName(tx, ROLE_VIEWER);
    for (const [index, account] of accounts.entries()) {
      await tx.insert(invites).values([
        {
          accountId: account.id,
          email: `guest${index + 1}@demo.example`,
          roleId: editorRole.id,
          tokenHash: sha256(randomToken(32)),
          expiresAt: new Date(Date.now() + INVITE_DAYS * 86_400_000),
        },
        {
          accountId: account.id,
          email: `freelancer${index + 1}@demo.example`,
          roleId: viewerRole.id,
          tokenHash: sha256(randomToken(32)),
          expiresAt: new Date(Date.now() + INVITE_DAYS * 86_400_000),
        },
      ]);
    }
    const demoUsers = await tx
      .select({ id: users.id, username: users.username, accountId: accountAccess.accountId })
      .from(users)
      .innerJoin(accountAccess, eq(accountAccess.userId, users.id))
      .where(like(users.email, '%@demo.example'));
    for (const [index, user] of demoUsers.filter((u) => /\.(editor|logger)$/.test(u.username)).entries()) {
      await tx.insert(sessions).values({
        idHash: sha256(randomToken(32)),
        publicId: randomToken(12),
        userId: user.id,
        ip: `192.0.2.${10 + index}`,
        userAgent: 'Demo browser',
        accountId: user.accountId,
        expiresAt: new Date(Date.now() + 7 * 86_400_000),
      });
    }
    return logins;
  });

/** Extra data, ingest formats, keyboard expansion maps and key shortcut sets, so the config sections show something. */
const seedDemoConfiguration = async (
  tx: Tx,
  { accounts, sites }: { accounts: { id: number }[]; sites: { id: number }[] },
) => {
  const [first, second] = accounts as [{ id: number }, { id: number }];
  await tx.insert(ingestFormats).values([
    { accountId: first.id, position: 0, format: 'PAL_wide' },
    { accountId: first.id, position: 1, format: 'PAL_wide_540' },
    { accountId: first.id, position: 2, format: 'NTSC_tall_640' },
  ]);
  await tx.insert(extraData).values([
    { scope: 'account', scopeId: first.id, key: extraDataStoredKey('cost_centre'), value: 'CC-1042' },
    {
      scope: 'account',
      scopeId: first.id,
      key: extraDataStoredKey('archive_policy'),
      value: 'Keep masters 7 years',
    },
    {
      scope: 'site',
      scopeId: (sites[0] as { id: number }).id,
      key: extraDataStoredKey('upload_format'),
      value: 'PAL_wide',
    },
  ]);
  await tx.insert(keyboardExpansionMaps).values([
    {
      accountId: first.id,
      name: 'Newsroom abbreviations',
      expansions: [
        { abbreviation: 'pm', text: 'Prime Minister' },
        { abbreviation: 'gov', text: 'government' },
      ],
    },
    { accountId: second.id, name: 'Sports names', expansions: [{ abbreviation: 'utd', text: 'United' }] },
  ]);
  const [cloudSet] = await tx
    .insert(keyShortcutSets)
    .values({ name: 'Standard', level: 'cloud' })
    .returning({ id: keyShortcutSets.id });
  const [newsSet] = await tx
    .insert(keyShortcutSets)
    .values({ name: 'Newsroom', level: 'account', accountId: first.id, parentId: cloudSet?.id ?? null })
    .returning({ id: keyShortcutSets.id });
  await tx.insert(keyShortcutSets).values({
    name: 'Newsroom (fast logging)',
    level: 'account',
    accountId: first.id,
    parentId: newsSet?.id ?? null,
  });
  if (cloudSet)
    await tx
      .insert(keyShortcutDefaults)
      .values({ scope: 'cloud', scopeId: 0, keyShortcutSetId: cloudSet.id });
  if (newsSet)
    await tx
      .insert(keyShortcutDefaults)
      .values({ scope: 'account', scopeId: first.id, keyShortcutSetId: newsSet.id });
};
