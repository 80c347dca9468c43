import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Mails waiting to be sent, written in the transaction of the change they tell about; the mail job sends
 * each and deletes its row. The body (with its token link) lives here, not in the job, so that it leaves
 * the database once delivered: pg-boss keeps finished jobs for days.
 */
export const mailOutbox = pgTable('mail_outbox', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  recipient: text().notNull(),
  subject: text().notNull(),
  bodyText: text().notNull(),
  bodyHtml: text(),
});
