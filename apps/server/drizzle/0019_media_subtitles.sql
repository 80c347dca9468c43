CREATE TABLE "media_subtitles" (
	"media_id" integer NOT NULL,
	"language" text NOT NULL,
	"format" text NOT NULL,
	"storage_path" text NOT NULL,
	"size" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "media_subtitles_media_id_language_pk" PRIMARY KEY("media_id","language")
);
--> statement-breakpoint
ALTER TABLE "media_subtitles" ADD CONSTRAINT "media_subtitles_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_subtitles" ADD CONSTRAINT "media_subtitles_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;