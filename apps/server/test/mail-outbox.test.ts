import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config.ts';
import { mailOutbox } from '../src/platform/mail-tables.ts';
import { createContext } from '../src/platform/start.ts';
import { makeSite, makeUser } from '../src/seed/factories.ts';
import {
  ADMIN_TEST_PASSWORD,
  buildTestApp,
  eventually,
  readMails,
  readMailTexts,
  type TestApp,
  testDriver,
} from './harness.ts';
import { crashTestServers, quiet, signIn } from './spawned-server.ts';

type ImportAnswer = { results: { email: string; success: boolean }[] };

const importRows = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    fullname: `Imported ${i}`,
    company: 'Northwind',
    email: `${prefix}.${i}@example.com`,
  }));

/** The registration mails to the imported addresses of `prefix`, one entry per .eml file. */
const registrationMailsTo = (mails: string[], prefix: string) =>
  mails.filter((mail) => mail.includes(`@example.com`) && mail.includes(`To: ${prefix}.`));

const outboxRows = async (t: TestApp) => (await t.ctx.db.select().from(mailOutbox)).length;

describe(`mail outbox (${testDriver()})`, () => {
  let t: TestApp;
  let siteId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    siteId = (await makeSite(t.ctx.db)).id;
  });
  afterAll(() => t.close());

  it('mails each of the 100 users of an import a registration link, and empties the outbox', async () => {
    const admin = await t.admin();
    const rows = importRows('hundred', 100);
    const made = await admin.post<ImportAnswer>('/api/users', { users: rows, siteId, dryRun: false });
    expect(made.status).toBe(200);
    expect(made.body.results.every((r) => r.success)).toBe(true);
    const mails = await eventually(() => {
      const found = registrationMailsTo(readMailTexts(t.config), 'hundred');
      return found.length >= 100 ? found : undefined;
    }, 30_000);
    expect(mails).toHaveLength(100);
    for (const row of rows) {
      const mail = mails.find((m) => m.includes(`To: ${row.email}`)) ?? '';
      expect(mail).toContain('resetType=registration');
    }
    await eventually(async () => (await outboxRows(t)) === 0);
  });

  it('sends no mail for a change that rolls back, and sends the one of a change that commits', async () => {
    const failed = t.ctx.db.transaction(async (tx) => {
      await makeUser(tx, { email: 'rolled.back@example.com' });
      await t.ctx.mail.enqueue(tx, [{ to: 'rolled.back@example.com', subject: 'Never', text: 'never sent' }]);
      throw new Error('the change fails after its mail was queued');
    });
    await expect(failed).rejects.toThrow('the change fails');
    // Queued after the failed one: once it is delivered, the failed one would have been too.
    await t.ctx.db.transaction(async (tx) => {
      await makeUser(tx, { email: 'committed@example.com' });
      await t.ctx.mail.enqueue(tx, [{ to: 'committed@example.com', subject: 'Sent', text: 'sent' }]);
    });
    await eventually(() => readMails(t.config).find((m) => m.includes('To: committed@example.com')));
    expect(readMails(t.config).some((m) => m.includes('rolled.back@example.com'))).toBe(false);
    const [pending] = await t.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, 'rolled.back@example.com'));
    expect(pending?.n).toBe(0);
  });

  it('retries a mail the mail server refused, delivers it, and never logs its link', async () => {
    const user = await makeUser(t.ctx.db);
    const original = t.ctx.mailer.send;
    let refusals = 0;
    t.ctx.mailer.send = async (message, options) => {
      if (message.to === user.email && refusals === 0) {
        refusals += 1;
        throw new Error('421 4.3.2 Service not available, try again later');
      }
      return original(message, options);
    };
    try {
      const asked = await t.client().post('/api/passwordReset', { username: user.username });
      expect(asked.status).toBe(200);
      const mail = await eventually(
        () => readMailTexts(t.config).find((m) => m.includes(`To: ${user.email}`)),
        15_000,
      );
      expect(refusals).toBe(1);
      const token = /resetToken=([A-Za-z0-9_-]+)/.exec(mail)?.[1] ?? '';
      expect(token.length).toBeGreaterThan(20);
      expect(t.logs()).toContain('job failed; it will be retried');
      expect(t.logs()).not.toContain(token);
    } finally {
      t.ctx.mailer.send = original;
    }
  });

  it('writes one file for a mail delivered twice (the process died before the job was marked done)', async () => {
    const original = t.ctx.mailer.send;
    let deliveries = 0;
    t.ctx.mailer.send = async (message, options) => {
      await original(message, options);
      if (message.to !== 'twice@example.com') return;
      deliveries += 1;
      if (deliveries === 1) throw new Error('connection lost after the message was accepted');
    };
    try {
      await t.ctx.db.transaction((tx) =>
        t.ctx.mail.enqueue(tx, [{ to: 'twice@example.com', subject: 'Once', text: 'one file' }]),
      );
      await eventually(() => deliveries === 2, 15_000);
      await eventually(async () => (await outboxRows(t)) === 0);
      expect(readMails(t.config).filter((m) => m.includes('To: twice@example.com'))).toHaveLength(1);
    } finally {
      t.ctx.mailer.send = original;
    }
  });
});

describe(`mail outbox across a crash (${testDriver()})`, () => {
  const servers = crashTestServers('mail-crash');

  it('delivers every registration mail of an import committed just before a kill -9, after the restart', async () => {
    const env = await servers.env({ SEED_DEMO: '0', PUBLIC_URL: 'http://media.test' });
    // The site to import into, made through the database before the server owns it.
    const setup = await createContext(loadConfig(env), { logStream: quiet() });
    const siteId = (await makeSite(setup.ctx.db)).id;
    await setup.ctx.close();

    const first = await servers.start(env);
    const admin = await signIn(first.base, 'admin', ADMIN_TEST_PASSWORD);
    const rows = importRows('crash', 100);
    const made = await fetch(`${first.base}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrftoken': admin.csrf, cookie: admin.cookie },
      body: JSON.stringify({ users: rows, siteId, dryRun: false }),
    });
    const answer = (await made.json()) as ImportAnswer;
    first.child.kill('SIGKILL');
    await first.exited;
    expect(made.status).toBe(200);
    expect(answer.results.every((r) => r.success)).toBe(true);
    const config = loadConfig(env);
    const beforeRestart = registrationMailsTo(readMails(config), 'crash').length;

    const second = await servers.start(env);
    // A job the killed process had fetched is retried at start: on PGlite because one process owns the
    // database, on PostgreSQL because the killed instance's advisory lock is free (platform/jobs/owners.ts).
    const mails = await eventually(() => {
      const found = registrationMailsTo(readMails(config), 'crash');
      return found.length >= 100 ? found : undefined;
    }, 30_000);
    // One file per mail, even for a mail written before the kill and written again after it.
    expect(mails).toHaveLength(100);
    for (const row of rows) expect(mails.some((m) => m.includes(`To: ${row.email}`))).toBe(true);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(second.output.join('')).not.toMatch(/Unhandled|uncaught/i);
    // Kept in the test's output, to see what the kill cut off.
    const retried = /"jobs":(\d+)[^\n]*jobs cut off by the last stop/.exec(second.output.join(''))?.[1] ?? 0;
    console.info(
      `mails written before the kill: ${beforeRestart} of 100; jobs cut off and retried: ${retried}`,
    );
  }, 200_000);
});
