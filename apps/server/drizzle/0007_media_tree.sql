CREATE TABLE "media" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "media_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"storage_path" text,
	"content_type" text,
	"duration" double precision,
	"width" integer,
	"height" integer,
	"fps" double precision,
	"size" bigint,
	"edl" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "nodes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "nodes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"parent_id" integer,
	"path" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"media_id" integer,
	"thumb_id" integer,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"artefacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"permissions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"here_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"search_text" text GENERATED ALWAYS AS (lower("nodes"."name" || ' ' || jsonb_path_query_array("nodes"."metadata", '$.*')::text)) STORED
);
--> statement-breakpoint
CREATE TABLE "thumbs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "thumbs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"storage_path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_parent_id_nodes_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_thumb_id_thumbs_id_fk" FOREIGN KEY ("thumb_id") REFERENCES "public"."thumbs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thumbs" ADD CONSTRAINT "thumbs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_account_idx" ON "media" USING btree ("account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "nodes_account_path_idx" ON "nodes" USING btree ("account_id","path");--> statement-breakpoint
CREATE INDEX "nodes_path_prefix_idx" ON "nodes" USING btree ("account_id","path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "nodes_parent_time_idx" ON "nodes" USING btree ("parent_id","created_at","id");--> statement-breakpoint
CREATE INDEX "nodes_parent_name_idx" ON "nodes" USING btree ("parent_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "nodes_search_trgm_idx" ON "nodes" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "nodes_media_idx" ON "nodes" USING btree ("media_id");--> statement-breakpoint
CREATE INDEX "thumbs_account_idx" ON "thumbs" USING btree ("account_id");