CREATE TABLE "extra_data" (
	"scope" text NOT NULL,
	"scope_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "extra_data_scope_scope_id_key_pk" PRIMARY KEY("scope","scope_id","key")
);
--> statement-breakpoint
CREATE TABLE "ingest_formats" (
	"account_id" integer NOT NULL,
	"position" integer NOT NULL,
	"format" text NOT NULL,
	CONSTRAINT "ingest_formats_account_id_position_pk" PRIMARY KEY("account_id","position")
);
--> statement-breakpoint
CREATE TABLE "key_shortcut_defaults" (
	"scope" text NOT NULL,
	"scope_id" integer NOT NULL,
	"key_shortcut_set_id" integer NOT NULL,
	CONSTRAINT "key_shortcut_defaults_scope_scope_id_pk" PRIMARY KEY("scope","scope_id")
);
--> statement-breakpoint
CREATE TABLE "key_shortcut_sets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "key_shortcut_sets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"parent_id" integer,
	"visible" boolean DEFAULT true NOT NULL,
	"level" text NOT NULL,
	"user_id" integer,
	"account_id" integer,
	"site_id" integer,
	"bindings" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "keyboard_expansion_maps" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "keyboard_expansion_maps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"expansions" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ingest_formats" ADD CONSTRAINT "ingest_formats_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_shortcut_defaults" ADD CONSTRAINT "key_shortcut_defaults_key_shortcut_set_id_key_shortcut_sets_id_fk" FOREIGN KEY ("key_shortcut_set_id") REFERENCES "public"."key_shortcut_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_shortcut_sets" ADD CONSTRAINT "key_shortcut_sets_parent_id_key_shortcut_sets_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."key_shortcut_sets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_shortcut_sets" ADD CONSTRAINT "key_shortcut_sets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_shortcut_sets" ADD CONSTRAINT "key_shortcut_sets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_shortcut_sets" ADD CONSTRAINT "key_shortcut_sets_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keyboard_expansion_maps" ADD CONSTRAINT "keyboard_expansion_maps_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "key_shortcut_sets_user_idx" ON "key_shortcut_sets" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "key_shortcut_sets_account_idx" ON "key_shortcut_sets" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "key_shortcut_sets_site_idx" ON "key_shortcut_sets" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "keyboard_expansion_maps_name_idx" ON "keyboard_expansion_maps" USING btree ("account_id",lower("name"));