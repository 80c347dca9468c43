CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" integer,
	"actor_name" text,
	"acting_role" text,
	"via" text,
	"operation" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"account_id" integer,
	"site_id" integer,
	"site_group_id" integer,
	"reseller_id" integer,
	"user_id" integer,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ip" text,
	"request_id" text,
	"outcome" text NOT NULL,
	"status" integer
);
--> statement-breakpoint
CREATE INDEX "audit_log_at_id_index" ON "audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_log_account_id_at_id_index" ON "audit_log" USING btree ("account_id","at","id") WHERE "audit_log"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_log_site_id_at_id_index" ON "audit_log" USING btree ("site_id","at","id") WHERE "audit_log"."site_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_log_site_group_id_at_id_index" ON "audit_log" USING btree ("site_group_id","at","id") WHERE "audit_log"."site_group_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_log_reseller_id_at_id_index" ON "audit_log" USING btree ("reseller_id","at","id") WHERE "audit_log"."reseller_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_log_user_id_at_id_index" ON "audit_log" USING btree ("user_id","at","id") WHERE "audit_log"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_log_actor_name_at_id_index" ON "audit_log" USING btree ("actor_name","at","id") WHERE "audit_log"."actor_name" is not null;--> statement-breakpoint
CREATE INDEX "audit_log_operation_at_id_index" ON "audit_log" USING btree ("operation","at","id");--> statement-breakpoint
CREATE INDEX "audit_log_target_type_target_id_at_id_index" ON "audit_log" USING btree ("target_type","target_id","at","id") WHERE "audit_log"."target_type" is not null;--> statement-breakpoint
-- Append-only (issue 33): UPDATE is always refused, and so is DELETE, except by the retention job
-- (modules/audit/retention.ts), which says so in its own transaction (app.audit_retention = 'on',
-- app.audit_retention_days = AUDIT_RETENTION_DAYS) and removes only rows older than that, never younger than a day.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('app.audit_retention', true) = 'on' THEN
    IF OLD."at" < now() - make_interval(days => greatest(1, coalesce(nullif(current_setting('app.audit_retention_days', true), ''), '1')::int)) THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'the audit log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();
