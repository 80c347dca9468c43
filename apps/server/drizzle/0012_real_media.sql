CREATE TABLE "ingest_item_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ingest_item_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"queue_item_id" integer NOT NULL,
	"rendition" text NOT NULL,
	"storage_path" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "edge_endpoints" ADD COLUMN "status_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "edge_endpoints" ADD COLUMN "status_reported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ingest_queue_items" ADD COLUMN "progress" integer;--> statement-breakpoint
ALTER TABLE "ingest_queue_items" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "status" text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "source_path" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "filmstrip_path" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "node_id" integer;--> statement-breakpoint
ALTER TABLE "ingest_item_files" ADD CONSTRAINT "ingest_item_files_queue_item_id_ingest_queue_items_id_fk" FOREIGN KEY ("queue_item_id") REFERENCES "public"."ingest_queue_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ingest_item_files_item_rendition_idx" ON "ingest_item_files" USING btree ("queue_item_id","rendition");--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_content_hash_idx" ON "media" USING btree ("account_id","content_hash");