import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Which instance runs each active job (PostgreSQL): the instance holds a session advisory lock on its key
 * for as long as it lives, so a job whose owner's lock is free belongs to a dead instance (kill -9, a lost
 * machine) and is handed out again at once rather than when its time limit ends.
 */
export const jobOwners = pgTable(
  'job_owners',
  {
    jobId: text().primaryKey(),
    queue: text().notNull(),
    instanceKey: bigint({ mode: 'number' }).notNull(),
    claimedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('job_owners_instance_idx').on(t.instanceKey)],
);
