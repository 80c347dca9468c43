CREATE TABLE "live_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "live_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel" text NOT NULL,
	"modified" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_events" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"cursor" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_subscriptions" (
	"event_id" text NOT NULL,
	"channel" text NOT NULL,
	CONSTRAINT "live_subscriptions_event_id_channel_pk" PRIMARY KEY("event_id","channel")
);
--> statement-breakpoint
ALTER TABLE "live_events" ADD CONSTRAINT "live_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_subscriptions" ADD CONSTRAINT "live_subscriptions_event_id_live_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."live_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_changes_channel_id_index" ON "live_changes" USING btree ("channel","id");--> statement-breakpoint
CREATE INDEX "live_changes_created_at_index" ON "live_changes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "live_events_last_seen_at_index" ON "live_events" USING btree ("last_seen_at");