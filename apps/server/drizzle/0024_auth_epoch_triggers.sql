-- Cached sessions and rights (platform/auth/auth-epoch.ts) stay good while auth_epoch stands still: every
-- statement that changes what they are read from bumps it in its own transaction and tells the listeners.
INSERT INTO "auth_epoch" ("id", "value") VALUES (1, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION "auth_epoch_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "auth_epoch" SET "value" = "value" + 1 WHERE "id" = 1;
  PERFORM pg_notify('auth_changes', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "sessions_auth_epoch" AFTER UPDATE OF "user_id", "expires_at", "ended_at", "account_id", "acting_role_id" OR DELETE OR TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
--> statement-breakpoint
CREATE TRIGGER "users_auth_epoch" AFTER UPDATE OF "username", "disabled" OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
--> statement-breakpoint
CREATE TRIGGER "manager_grants_auth_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "manager_grants" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
--> statement-breakpoint
CREATE TRIGGER "account_access_auth_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "account_access" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
--> statement-breakpoint
CREATE TRIGGER "roles_auth_epoch" AFTER UPDATE OF "is_manager" OR DELETE OR TRUNCATE ON "roles" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
