CREATE TABLE "live_segments" (
	"media_id" integer NOT NULL,
	"sequence" integer NOT NULL,
	"duration" double precision NOT NULL,
	"discontinuity" boolean DEFAULT false NOT NULL,
	"storage_path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_segments_media_id_sequence_pk" PRIMARY KEY("media_id","sequence")
);
--> statement-breakpoint
ALTER TABLE "live_segments" ADD CONSTRAINT "live_segments_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;