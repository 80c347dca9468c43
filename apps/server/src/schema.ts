// Every module's tables, for drizzle-kit and for the typed query API.
export * from './modules/access/tables.ts';
export * from './modules/api-tokens/tables.ts';
export * from './modules/arrivals/tables.ts';
export * from './modules/audit/tables.ts';
export * from './modules/auth/tables.ts';
export * from './modules/config/tables.ts';
export * from './modules/edge/tables.ts';
export * from './modules/events/tables.ts';
export * from './modules/ingest/tables.ts';
export * from './modules/mfa/tables.ts';
export * from './modules/nodes/tables.ts';
export * from './modules/notifications/tables.ts';
export * from './modules/oidc/tables.ts';
export * from './modules/organisation/tables.ts';
export * from './modules/passwords/tables.ts';
export * from './modules/publishing/tables.ts';
export * from './modules/uploads/tables.ts';
export * from './modules/users/tables.ts';
export * from './modules/webhooks/tables.ts';
// Platform tables.
export * from './platform/jobs/tables.ts';
export * from './platform/mail-tables.ts';
