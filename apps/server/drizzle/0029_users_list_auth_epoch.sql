-- The users list (GET /api/users) is cached with the sessions and rights (modules/users/routes.ts): a new
-- user, and a change of any column it shows or is filtered by (company, home site), moves the epoch too.
DROP TRIGGER "users_auth_epoch" ON "users";
--> statement-breakpoint
CREATE TRIGGER "users_auth_epoch" AFTER INSERT OR UPDATE OF "username", "disabled", "fullname", "email", "emailverified", "mfa_secret", "company", "home_site_id" OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
