-- GET /api/me is cached with the sessions and rights (modules/auth/service.ts, meAnswers): the user's own
-- fields it shows and the accounts' largest video size move the epoch too.
DROP TRIGGER "users_auth_epoch" ON "users";
--> statement-breakpoint
CREATE TRIGGER "users_auth_epoch" AFTER UPDATE OF "username", "disabled", "fullname", "email", "emailverified", "mfa_secret" OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
--> statement-breakpoint
CREATE TRIGGER "accounts_auth_epoch" AFTER INSERT OR UPDATE OF "max_video" OR DELETE OR TRUNCATE ON "accounts" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
