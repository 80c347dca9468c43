CREATE TABLE "edl_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "edl_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"media_id" integer NOT NULL,
	"edl" jsonb NOT NULL,
	"duration" double precision,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"replaced_by" integer
);
--> statement-breakpoint
ALTER TABLE "edl_versions" ADD CONSTRAINT "edl_versions_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "edl_versions" ADD CONSTRAINT "edl_versions_replaced_by_users_id_fk" FOREIGN KEY ("replaced_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "edl_versions_media_idx" ON "edl_versions" USING btree ("media_id","id");