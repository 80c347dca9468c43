CREATE TABLE "job_owners" (
	"job_id" text PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"instance_key" bigint NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "job_owners_instance_idx" ON "job_owners" USING btree ("instance_key");