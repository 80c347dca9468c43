-- The cloud's roles list (GET /api/roles, read by every role picker) is cached with the sessions and
-- rights (modules/access/routes.ts): any change of a role moves the epoch, not only of is_manager.
DROP TRIGGER "roles_auth_epoch" ON "roles";
--> statement-breakpoint
CREATE TRIGGER "roles_auth_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "roles" FOR EACH STATEMENT EXECUTE FUNCTION "auth_epoch_bump"();
