import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from './config.ts';
import { randomToken } from './crypto.ts';
import type { Db, DbOrTx } from './db/client.ts';
import type { Jobs } from './jobs/jobs.ts';
import { defineQueue } from './jobs/queues.ts';
import { mailOutbox } from './mail-tables.ts';

export type MailMessage = { to: string; subject: string; text: string; html?: string };

/**
 * `key` names one mail for good: sending it again (a retry) writes the same .eml file and gives the same
 * Message-ID, so that a receiver can drop the copy.
 */
export type Mailer = { send: (message: MailMessage, options?: { key?: string }) => Promise<void> };

/** How long SMTP may take, well within the mail job's time limit. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

const senderDomain = (mailFrom: string) => /@([^>\s]+)/.exec(mailFrom)?.[1] ?? 'localhost';

/**
 * The one way mail leaves the product: SMTP when SMTP_URL is set, else an .eml file per message under
 * DATA_DIR/mail, so that nothing is lost on a machine without a mail server. Services do not call it:
 * they put mails in the outbox (MailOutbox.enqueue), and the mail job calls it.
 */
export const createMailer = (
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
  log: FastifyBaseLogger,
): Mailer => {
  const messageId = (key: string | undefined) =>
    key ? { messageId: `<${key}@${senderDomain(config.mailFrom)}>` } : {};
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS });
    return {
      send: async (message, options = {}) => {
        await transport.sendMail({ from: config.mailFrom, ...messageId(options.key), ...message });
        log.info({ subject: message.subject }, 'mail sent');
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const folder = path.join(config.dataDir, 'mail');
  return {
    send: async (message, options = {}) => {
      const info = await transport.sendMail({ from: config.mailFrom, ...messageId(options.key), ...message });
      await fs.mkdir(folder, { recursive: true });
      const name = options.key ?? `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomToken(6)}`;
      const file = path.join(folder, `${name}.eml`);
      const temporary = `${file}.${randomToken(4)}.tmp`;
      await fs.writeFile(temporary, info.message as Buffer);
      await fs.rename(temporary, file);
      log.info({ subject: message.subject, file: path.basename(file) }, 'mail written to file');
    },
  };
};

/**
 * The mail job: one job per outbox row, carrying only the row's id. Retried with backoff for about an
 * hour and a half (1 s, 2 s, 4 s ... with jitter) so that a mail server down for a while loses nothing.
 */
export const mailQueue = defineQueue<{ outboxId: number }>('mail', {
  retryLimit: 12,
  retryDelaySeconds: 1,
  retryBackoff: true,
  timeLimitSeconds: 30,
});

export type MailOutbox = {
  /**
   * Puts mails in the outbox inside the caller's transaction (the one that writes the users, the invite,
   * the token...): they are sent once it commits, and never if it rolls back.
   */
  enqueue: (tx: DbOrTx, messages: MailMessage[]) => Promise<void>;
};

/** Mails sent at once by one instance. */
const MAIL_CONCURRENCY = 4;

/**
 * Why an outbox table rather than the job's own data: the job row is written in the same transaction
 * either way, but pg-boss keeps finished jobs (and their data) for days, while a mail carries a link with
 * a live token; the outbox row is deleted as soon as the mail is delivered.
 *
 * Delivery is at least once: a crash between delivering and deleting the row sends the mail again when
 * the job is retried. As an .eml file that rewrites the same file (named by the row); over SMTP the copy
 * has the same Message-ID.
 */
export const startMailOutbox = async (options: {
  db: Db;
  jobs: Jobs;
  mailer: Mailer;
}): Promise<MailOutbox> => {
  const { db, jobs, mailer } = options;
  await jobs.work(
    mailQueue,
    async ({ data }) => {
      const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, data.outboxId));
      // Gone: delivered by an earlier attempt whose completion was not recorded.
      if (!row) return;
      const key = `${row.createdAt.toISOString().replace(/[:.]/g, '-')}-${String(row.id).padStart(10, '0')}`;
      await mailer.send(
        {
          to: row.recipient,
          subject: row.subject,
          text: row.bodyText,
          ...(row.bodyHtml === null ? {} : { html: row.bodyHtml }),
        },
        { key },
      );
      await db.delete(mailOutbox).where(eq(mailOutbox.id, row.id));
    },
    { concurrency: MAIL_CONCURRENCY },
  );
  return {
    enqueue: async (tx, messages) => {
      if (!messages.length) return;
      const rows = await tx
        .insert(mailOutbox)
        .values(
          messages.map((message) => ({
            recipient: message.to,
            subject: message.subject,
            bodyText: message.text,
            bodyHtml: message.html ?? null,
          })),
        )
        .returning({ id: mailOutbox.id });
      await jobs.send(
        tx,
        mailQueue,
        rows.map((row) => ({ outboxId: row.id })),
      );
    },
  };
};
