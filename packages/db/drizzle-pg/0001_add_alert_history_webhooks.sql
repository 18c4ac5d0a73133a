CREATE TABLE "alert_firings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_firings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"alert_id" integer,
	"symbol" text NOT NULL,
	"metric" text NOT NULL,
	"value" double precision NOT NULL,
	"threshold" double precision NOT NULL,
	"direction" text NOT NULL,
	"state" text NOT NULL,
	"source" text DEFAULT 'server' NOT NULL,
	"note" text,
	"fired_at" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_webhooks" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"secret" text NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "metric" text DEFAULT 'spread' NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "hysteresis" double precision;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "webhook_notify" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "last_fired_side" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "telegram_outbox" ADD COLUMN "channel" text DEFAULT 'telegram' NOT NULL;--> statement-breakpoint
ALTER TABLE "telegram_outbox" ADD COLUMN "firing_id" integer;--> statement-breakpoint
ALTER TABLE "alert_firings" ADD CONSTRAINT "alert_firings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_firings" ADD CONSTRAINT "alert_firings_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_webhooks" ADD CONSTRAINT "user_webhooks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_firings_user_fired_idx" ON "alert_firings" USING btree ("user_id","fired_at","id");--> statement-breakpoint
ALTER TABLE "telegram_outbox" ADD CONSTRAINT "telegram_outbox_firing_id_alert_firings_id_fk" FOREIGN KEY ("firing_id") REFERENCES "public"."alert_firings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "telegram_outbox_firing_idx" ON "telegram_outbox" USING btree ("firing_id");