import { describe, expect, it } from 'vitest';
import { apiGet } from '../api.ts';
import { E2E_ADMIN_PASSWORD, E2E_DEMO_PASSWORD, newPage, signIn, useServerAndBrowser } from '../harness.ts';
import { type PageVisit, visitAsRole, writeControls } from '../roles.ts';

type Id = { id: number };

/** Every page of the router, by a name of its own. */
const PAGES = [
  'home',
  'ownSettings',
  'otherSettings',
  'accounts',
  'account',
  'accountUsers',
  'dashboard',
  'media',
  'mediaGrid',
  'publishing',
  'webUpload',
  'metaUpload',
  'arrivals',
  'accountQueue',
  'integrations',
  'site',
  'sitePublishing',
  'ownEdge',
  'edgeServices',
  'edgeEndpoints',
  'edgeQueue',
  'edgeUnprocessed',
  'organisation',
  'managers',
  'cloudEdge',
  'passwordRules',
  'lockouts',
  'adminSessions',
  'adminWebhooks',
  'activity',
  'diagnostic',
] as const;
type PageName = (typeof PAGES)[number];

const CLOUD_PAGES: PageName[] = [
  'managers',
  'cloudEdge',
  'passwordRules',
  'lockouts',
  'adminSessions',
  'adminWebhooks',
  'diagnostic',
];
const LONDON_EDGE_PAGES: PageName[] = ['edgeServices', 'edgeEndpoints', 'edgeQueue', 'edgeUnprocessed'];
const ACCOUNT_MANAGERS_PAGES: PageName[] = ['arrivals', 'accountQueue', 'integrations'];

type RoleExpectation = {
  role: string;
  username: string;
  password: string;
  /** Pages that say they are not for the role instead of showing controls. */
  notForRole: PageName[];
  /** Pages where the role changes something; every other page offers no control that changes anything. */
  writes: PageName[] | 'all';
  /** Controls the role may not use even on the pages where it writes. */
  forbidden: RegExp[];
};

/**
 * The demo's people (DESIGN.md demo data) in each role, on the evening-news account of the London site and
 * London's edge server; what each may use follows the rights matrix (spec1 §6, the roles of spec1 §5).
 */
const ROLES: RoleExpectation[] = [
  {
    role: 'administrator',
    username: 'admin',
    password: E2E_ADMIN_PASSWORD,
    notForRole: [],
    writes: 'all',
    forbidden: [],
  },
  {
    role: 'site manager',
    username: 'london.manager',
    password: E2E_DEMO_PASSWORD,
    notForRole: CLOUD_PAGES,
    writes: PAGES.filter((page) => !['home', 'otherSettings', 'dashboard', ...CLOUD_PAGES].includes(page)),
    // Sites of another site, site groups and resellers are their managers'.
    forbidden: [/^Edit site (?!London$)/, /^Edit (site group|reseller)/, /^New (site|site group|reseller)$/],
  },
  {
    role: 'account manager',
    username: 'evening-news.manager',
    password: E2E_DEMO_PASSWORD,
    notForRole: [...CLOUD_PAGES, 'organisation', 'sitePublishing', ...LONDON_EDGE_PAGES],
    writes: [
      'ownSettings',
      'account',
      'accountUsers',
      'media',
      'mediaGrid',
      'publishing',
      'webUpload',
      'metaUpload',
      'arrivals',
      'accountQueue',
      'integrations',
      'ownEdge',
    ],
    // Creating accounts, an account's billing and state, and its managers are the site's.
    forbidden: [
      /^(New account|Clone account)$/,
      /^(Billing id|Notes|Disabled and eligible for automatic deletion)$/,
      /^(Add manager|Delete all managers|Delete evening-news\.manager)$/,
    ],
  },
  {
    role: 'editor',
    username: 'evening-news.editor',
    password: E2E_DEMO_PASSWORD,
    notForRole: [
      ...CLOUD_PAGES,
      'organisation',
      'sitePublishing',
      ...LONDON_EDGE_PAGES,
      ...ACCOUNT_MANAGERS_PAGES,
      // The audit log is for managers.
      'activity',
    ],
    writes: ['ownSettings', 'media', 'mediaGrid', 'webUpload', 'ownEdge'],
    forbidden: [/^Folder permissions$/, /^Edit as role$/],
  },
  {
    role: 'viewer',
    username: 'evening-news.viewer',
    password: E2E_DEMO_PASSWORD,
    notForRole: [
      ...CLOUD_PAGES,
      'organisation',
      'sitePublishing',
      ...LONDON_EDGE_PAGES,
      ...ACCOUNT_MANAGERS_PAGES,
      // The audit log is for managers.
      'activity',
    ],
    writes: ['ownSettings', 'ownEdge'],
    forbidden: [/^New folder$/, /^Folder permissions$/, /^Edit as role$/],
  },
];

/**
 * Refusals the spec itself prescribes: spec2 §6 — an endpoint assigned to an account the person does not
 * manage asks for its arrivals folders and, refused, offers only "an account manager must set this".
 */
const PRESCRIBED_REFUSALS = [/^GET \/api\/accounts\/\d+\/arrivalsFolders 403$/];

describe('every page, by address, for every role (issue 18)', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  /** The address of every page, filled with the demo's evening-news account, London site and its edge server. */
  const readPageAddresses = async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const account = await apiGet<Id>(context, `${base}/api/accounts/byName/evening-news`);
    const [site] = await apiGet<Id[]>(context, `${base}/api/sites?searchText=London`);
    const edgeServers = await apiGet<(Id & { siteId: number | null })[]>(context, `${base}/api/edgeServers`);
    const edge = edgeServers.find((e) => e.siteId === site?.id);
    const [service] = await apiGet<Id[]>(context, `${base}/api/edgeServers/${edge?.id}/services`);
    const [other] = await apiGet<Id[]>(context, `${base}/api/users?searchText=sports-desk.editor`);
    await context.close();
    expect([site, edge, service, other].every(Boolean)).toBe(true);
    return (me: Id): Record<PageName, string> => ({
      home: '/',
      ownSettings: `/users/user_settings/${me.id}/`,
      otherSettings: `/users/user_settings/${other?.id}/`,
      accounts: '/accounts',
      account: '/accounts/evening-news',
      accountUsers: '/accounts/evening-news/users',
      dashboard: '/accounts/evening-news/dashboard',
      media: '/accounts/evening-news/media',
      mediaGrid: '/accounts/evening-news/media/grid',
      publishing: '/accounts/evening-news/publishing',
      webUpload: '/accounts/evening-news/webupload',
      metaUpload: '/accounts/evening-news/metaupload',
      arrivals: `/accounts/${account.id}/arrivals`,
      accountQueue: `/accounts/${account.id}/ingestQueue`,
      integrations: '/accounts/evening-news/integrations',
      site: `/site/${site?.id}`,
      sitePublishing: `/site/${site?.id}/publishing`,
      ownEdge: `/users/${me.id}/edge`,
      edgeServices: `/edge/${edge?.id}/services`,
      edgeEndpoints: `/edge/${edge?.id}/services/${service?.id}/endpoints`,
      edgeQueue: `/edge/${edge?.id}/ingestQueue`,
      edgeUnprocessed: `/edge/${edge?.id}/unprocessedFiles`,
      organisation: '/admin/organisation',
      managers: '/admin/managers',
      cloudEdge: '/admin/edge',
      passwordRules: '/admin/passwordRules',
      lockouts: '/admin/lockouts',
      adminSessions: '/admin/sessions',
      adminWebhooks: '/admin/webhooks',
      activity: '/admin/activity',
      diagnostic: '/diagnostic',
    });
  };

  /** Read once, by the first role's test. */
  let pageAddresses: ReturnType<typeof readPageAddresses> | undefined;

  for (const expectation of ROLES) {
    it(`shows a ${expectation.role} only what the role may use`, { timeout: 300_000 }, async () => {
      pageAddresses ??= readPageAddresses();
      const addressesOf = await pageAddresses;
      const names = new Map<string, PageName>();
      const visits: PageVisit[] = await visitAsRole(
        setup,
        expectation,
        (me) => {
          const addresses = addressesOf(me);
          for (const name of PAGES) names.set(addresses[name], name);
          return PAGES.map((name) => addresses[name]);
        },
        // Every page, light and dark, as the role that sees all of it.
        {
          screenshotsAs: expectation.writes === 'all' ? (address) => `page-${names.get(address)}` : undefined,
        },
      );
      const problems = visits.flatMap((visit) => {
        const name = names.get(visit.address) as PageName;
        const found: string[] = [];
        const refusals = visit.refusals.filter(
          (r) => !PRESCRIBED_REFUSALS.some((allowed) => allowed.test(r)),
        );
        const saysNotForRole = /not available to your role/.test(visit.message ?? '');
        // A page whose subject only the server can judge (an edge server by id) asks for it once, and says so.
        const asked = saysNotForRole ? refusals.slice(1) : refusals;
        if (asked.length > 0) found.push(`refused: ${refusals.join('; ')}`);
        const errors = visit.toasts.filter((toast) => /error|permission|not allowed|refused/i.test(toast));
        if (errors.length > 0) found.push(`error notifications: ${errors.join(' | ')}`);
        if (expectation.notForRole.includes(name) !== saysNotForRole)
          found.push(saysNotForRole ? `says not for the role: ${visit.message}` : 'shown, not for the role');
        const controls = writeControls(visit);
        if (expectation.writes !== 'all' && !expectation.writes.includes(name) && controls.length > 0)
          found.push(`controls that change things: ${controls.join(', ')}`);
        const forbidden = controls.filter((c) => expectation.forbidden.some((rule) => rule.test(c)));
        if (forbidden.length > 0) found.push(`forbidden controls: ${forbidden.join(', ')}`);
        for (const violation of visit.accessibility) found.push(`accessibility: ${violation}`);
        return found.map((problem) => `${name} (${visit.address}): ${problem}`);
      });
      expect(problems).toEqual([]);
    });
  }
});
