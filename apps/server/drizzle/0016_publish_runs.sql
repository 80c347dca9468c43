ALTER TABLE "publishes" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "publishes" ADD COLUMN "progress" integer;--> statement-breakpoint
ALTER TABLE "publishes" ADD COLUMN "log" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "publishes" ADD COLUMN "outputs" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "publishes" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "publishes" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "publishes" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "publishes" ADD CONSTRAINT "publishes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;