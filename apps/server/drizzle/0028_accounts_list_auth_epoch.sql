-- The accounts list (GET /api/accounts) is cached with the sessions and rights (modules/accounts/routes.ts):
-- any change of an account moves the epoch (not only its largest video size), and so does a change of what
-- a listed row shows or who may see it: a site's name or site group, a site group's reseller.
DROP TRIGGER "accounts_auth_epoch" ON "accounts";
--> statement-breakpoint
CREATE TRIGGER "accounts_auth_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "accounts" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
--> statement-breakpoint
CREATE TRIGGER "sites_auth_epoch" AFTER INSERT OR UPDATE OF "name", "site_group_id" OR DELETE OR TRUNCATE ON "sites" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
--> statement-breakpoint
CREATE TRIGGER "site_groups_auth_epoch" AFTER UPDATE OF "reseller_id" OR DELETE OR TRUNCATE ON "site_groups" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
