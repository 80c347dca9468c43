ALTER TABLE "publishes" ADD COLUMN "edge_server_id" integer;--> statement-breakpoint
ALTER TABLE "publishes" ADD CONSTRAINT "publishes_edge_server_id_edge_servers_id_fk" FOREIGN KEY ("edge_server_id") REFERENCES "public"."edge_servers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "publishes_edge_idx" ON "publishes" USING btree ("edge_server_id","status");