CREATE SEQUENCE "public"."ingest_queue_version" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "arrivals_folders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "arrivals_folders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"type_id" text NOT NULL,
	"name" text NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "edge_commands" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "edge_commands_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"edge_server_id" integer NOT NULL,
	"action" text NOT NULL,
	"target_id" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	"result" jsonb
);
--> statement-breakpoint
CREATE TABLE "edge_servers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "edge_servers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"type" text DEFAULT 'server' NOT NULL,
	"user_id" integer NOT NULL,
	"site_id" integer,
	"endpoint_versions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"advanced_options" jsonb NOT NULL,
	"agent_token_hash" text NOT NULL,
	"last_seen_at" timestamp with time zone,
	"support_connection" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "edge_servers_agentTokenHash_unique" UNIQUE("agent_token_hash")
);
--> statement-breakpoint
CREATE TABLE "edge_endpoints" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "edge_endpoints_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"service_id" integer NOT NULL,
	"name" text NOT NULL,
	"type_id" text NOT NULL,
	"account_id" integer,
	"site_id" integer,
	"arrivals_folder_id" integer,
	"workflow_id" integer,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"pending_settings" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'ok' NOT NULL,
	"bad" boolean DEFAULT false NOT NULL,
	"recording" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "edge_services" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "edge_services_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"edge_server_id" integer NOT NULL,
	"name" text NOT NULL,
	"type_id" text NOT NULL,
	"service_group_id" integer NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ingest_queue_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ingest_queue_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"edge_server_id" integer NOT NULL,
	"endpoint_id" integer,
	"account_id" integer,
	"arrivals_folder_id" integer,
	"queue_id" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"is_stream" boolean DEFAULT false NOT NULL,
	"is_schedule" boolean DEFAULT false NOT NULL,
	"source_name" text DEFAULT '' NOT NULL,
	"reel_name" text DEFAULT '' NOT NULL,
	"disk_label" text DEFAULT '' NOT NULL,
	"clip_name" text DEFAULT '' NOT NULL,
	"scheduled_start_time" timestamp with time zone,
	"priority" integer DEFAULT 0 NOT NULL,
	"rank" integer NOT NULL,
	"when_queued" timestamp with time zone DEFAULT now() NOT NULL,
	"when_started" timestamp with time zone,
	"when_finished" timestamp with time zone,
	"duration" double precision,
	"proxy_width" integer,
	"proxy_height" integer,
	"error" text,
	"forced" boolean DEFAULT false NOT NULL,
	"log" text DEFAULT '' NOT NULL,
	"thumbnail_path" text,
	"version" bigint DEFAULT nextval('ingest_queue_version') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unprocessed_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "unprocessed_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"endpoint_id" integer NOT NULL,
	"path" text NOT NULL,
	"status" text DEFAULT 'missingFiles' NOT NULL,
	"forced" boolean DEFAULT false NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "arrivals_folders" ADD CONSTRAINT "arrivals_folders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edge_commands" ADD CONSTRAINT "edge_commands_edge_server_id_edge_servers_id_fk" FOREIGN KEY ("edge_server_id") REFERENCES "public"."edge_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edge_servers" ADD CONSTRAINT "edge_servers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edge_servers" ADD CONSTRAINT "edge_servers_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edge_endpoints" ADD CONSTRAINT "edge_endpoints_service_id_edge_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."edge_services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edge_endpoints" ADD CONSTRAINT "edge_endpoints_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edge_endpoints" ADD CONSTRAINT "edge_endpoints_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edge_endpoints" ADD CONSTRAINT "edge_endpoints_arrivals_folder_id_arrivals_folders_id_fk" FOREIGN KEY ("arrivals_folder_id") REFERENCES "public"."arrivals_folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edge_endpoints" ADD CONSTRAINT "edge_endpoints_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edge_services" ADD CONSTRAINT "edge_services_edge_server_id_edge_servers_id_fk" FOREIGN KEY ("edge_server_id") REFERENCES "public"."edge_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_queue_items" ADD CONSTRAINT "ingest_queue_items_edge_server_id_edge_servers_id_fk" FOREIGN KEY ("edge_server_id") REFERENCES "public"."edge_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_queue_items" ADD CONSTRAINT "ingest_queue_items_endpoint_id_edge_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."edge_endpoints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_queue_items" ADD CONSTRAINT "ingest_queue_items_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_queue_items" ADD CONSTRAINT "ingest_queue_items_arrivals_folder_id_arrivals_folders_id_fk" FOREIGN KEY ("arrivals_folder_id") REFERENCES "public"."arrivals_folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unprocessed_files" ADD CONSTRAINT "unprocessed_files_endpoint_id_edge_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."edge_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "arrivals_folders_account_id_index" ON "arrivals_folders" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "edge_commands_edge_server_id_action_requested_at_index" ON "edge_commands" USING btree ("edge_server_id","action","requested_at");--> statement-breakpoint
CREATE INDEX "edge_servers_user_type_idx" ON "edge_servers" USING btree ("user_id","type",lower("name"));--> statement-breakpoint
CREATE INDEX "edge_servers_site_type_idx" ON "edge_servers" USING btree ("site_id","type",lower("name"));--> statement-breakpoint
CREATE INDEX "edge_servers_type_idx" ON "edge_servers" USING btree ("type",lower("name"));--> statement-breakpoint
CREATE INDEX "edge_endpoints_service_id_index" ON "edge_endpoints" USING btree ("service_id");--> statement-breakpoint
CREATE INDEX "edge_endpoints_account_id_index" ON "edge_endpoints" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "edge_endpoints_arrivals_folder_id_index" ON "edge_endpoints" USING btree ("arrivals_folder_id");--> statement-breakpoint
CREATE INDEX "edge_services_edge_server_id_index" ON "edge_services" USING btree ("edge_server_id");--> statement-breakpoint
CREATE INDEX "edge_services_service_group_id_index" ON "edge_services" USING btree ("service_group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ingest_queue_items_endpoint_queue_idx" ON "ingest_queue_items" USING btree ("edge_server_id","endpoint_id","queue_id");--> statement-breakpoint
CREATE INDEX "ingest_queue_items_edge_rank_idx" ON "ingest_queue_items" USING btree ("edge_server_id","rank","id");--> statement-breakpoint
CREATE INDEX "ingest_queue_items_folder_rank_idx" ON "ingest_queue_items" USING btree ("arrivals_folder_id","rank","id");--> statement-breakpoint
CREATE INDEX "ingest_queue_items_account_rank_idx" ON "ingest_queue_items" USING btree ("account_id","rank","id");--> statement-breakpoint
CREATE INDEX "ingest_queue_items_endpoint_idx" ON "ingest_queue_items" USING btree ("endpoint_id","id");--> statement-breakpoint
CREATE INDEX "ingest_queue_items_status_idx" ON "ingest_queue_items" USING btree ("edge_server_id","status");--> statement-breakpoint
CREATE INDEX "ingest_queue_items_version_idx" ON "ingest_queue_items" USING btree ("version");--> statement-breakpoint
CREATE UNIQUE INDEX "unprocessed_files_endpoint_id_path_index" ON "unprocessed_files" USING btree ("endpoint_id","path");