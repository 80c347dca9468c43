CREATE TABLE "publish_buttons" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "publish_buttons_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer,
	"site_id" integer,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"keep_for" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"icon_id" integer,
	"phases" jsonb NOT NULL,
	"restrictions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"location" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "publish_buttons_one_owner" CHECK (("publish_buttons"."account_id" is null) <> ("publish_buttons"."site_id" is null))
);
--> statement-breakpoint
CREATE TABLE "publish_icons" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "publish_icons_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer,
	"site_id" integer,
	"name" text NOT NULL,
	"storage_path" text NOT NULL,
	"content_type" text DEFAULT 'image/png' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "publish_icons_one_owner" CHECK (("publish_icons"."account_id" is null) <> ("publish_icons"."site_id" is null))
);
--> statement-breakpoint
CREATE TABLE "publishes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "publishes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"button_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"node_id" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "publish_buttons" ADD CONSTRAINT "publish_buttons_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publish_buttons" ADD CONSTRAINT "publish_buttons_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publish_buttons" ADD CONSTRAINT "publish_buttons_icon_id_publish_icons_id_fk" FOREIGN KEY ("icon_id") REFERENCES "public"."publish_icons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publish_icons" ADD CONSTRAINT "publish_icons_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publish_icons" ADD CONSTRAINT "publish_icons_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publishes" ADD CONSTRAINT "publishes_button_id_publish_buttons_id_fk" FOREIGN KEY ("button_id") REFERENCES "public"."publish_buttons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publishes" ADD CONSTRAINT "publishes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publishes" ADD CONSTRAINT "publishes_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "publish_buttons_account_name_idx" ON "publish_buttons" USING btree ("account_id",lower("name"));--> statement-breakpoint
CREATE INDEX "publish_buttons_site_name_idx" ON "publish_buttons" USING btree ("site_id",lower("name"));--> statement-breakpoint
CREATE INDEX "publish_buttons_icon_idx" ON "publish_buttons" USING btree ("icon_id");--> statement-breakpoint
CREATE INDEX "publish_icons_account_idx" ON "publish_icons" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "publish_icons_site_idx" ON "publish_icons" USING btree ("site_id","id");--> statement-breakpoint
CREATE INDEX "publishes_button_idx" ON "publishes" USING btree ("button_id","deleted_at");--> statement-breakpoint
CREATE INDEX "publishes_account_idx" ON "publishes" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "publishes_node_idx" ON "publishes" USING btree ("node_id");