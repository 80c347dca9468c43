CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "invites" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invites_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"email" text NOT NULL,
	"username" text,
	"role_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "invites_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "account_name_reservations" (
	"name_lower" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"clone_from" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "workflows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"definition" text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
DROP INDEX "accounts_site_id_index";--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "account_id" integer;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "acting_role_id" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "billing_group_id" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "production_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "department" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "billing_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "edit_limit" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "welcome_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "notes" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "version" text DEFAULT 'stable' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "launch_mode" text DEFAULT 'Same tab' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "skin" text DEFAULT 'By Site' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "default_edit_mode" text DEFAULT 'inherit' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "contact_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "contact_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "contact_company" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "contact_phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "concurrent_user_limit" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "max_video" text DEFAULT '640x360' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "ingest_formats" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("accounts"."name" || ' ' || "accounts"."production_name")) STORED;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mfa_last_time_step" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "home_site_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("users"."username" || ' ' || "users"."fullname" || ' ' || "users"."email")) STORED;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_name_reservations" ADD CONSTRAINT "account_name_reservations_clone_from_accounts_id_fk" FOREIGN KEY ("clone_from") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invites_account_email_idx" ON "invites" USING btree ("account_id",lower("email"));--> statement-breakpoint
CREATE INDEX "workflows_account_id_index" ON "workflows" USING btree ("account_id");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_billing_group_id_resellers_id_fk" FOREIGN KEY ("billing_group_id") REFERENCES "public"."resellers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_account_id_index" ON "sessions" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "accounts_site_name_idx" ON "accounts" USING btree ("site_id",lower("name"));--> statement-breakpoint
CREATE INDEX "accounts_created_idx" ON "accounts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "accounts_search_trgm_idx" ON "accounts" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_home_site_id_index" ON "users" USING btree ("home_site_id");