ALTER TABLE "sessions" ADD COLUMN "authenticated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Cached sessions (platform/auth/sessions.ts) carry it: entering the password again must count at once.
DROP TRIGGER "sessions_auth_epoch" ON "sessions";
--> statement-breakpoint
CREATE TRIGGER "sessions_auth_epoch" AFTER UPDATE OF "user_id", "expires_at", "ended_at", "account_id", "acting_role_id", "authenticated_at" OR DELETE OR TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
