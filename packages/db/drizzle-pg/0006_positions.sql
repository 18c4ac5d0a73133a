CREATE TABLE "position_closes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "position_closes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"position_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"lots" integer NOT NULL,
	"exit" double precision NOT NULL,
	"realised_inr" double precision NOT NULL,
	"closed_at" bigint NOT NULL,
	"reason" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "positions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "positions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"spread" text NOT NULL,
	"side" text NOT NULL,
	"lots" integer NOT NULL,
	"entry" double precision NOT NULL,
	"units" double precision NOT NULL,
	"legs" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"target_inr" double precision,
	"stop_inr" double precision,
	"opened_at" bigint NOT NULL,
	"campaign_id" integer NOT NULL,
	"rolled_from_id" integer,
	"status" text DEFAULT 'open' NOT NULL,
	"closed_at" bigint
);
--> statement-breakpoint
ALTER TABLE "position_closes" ADD CONSTRAINT "position_closes_position_id_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."positions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "position_closes" ADD CONSTRAINT "position_closes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "position_closes_user_id_idx" ON "position_closes" USING btree ("user_id","closed_at");--> statement-breakpoint
CREATE INDEX "position_closes_position_id_idx" ON "position_closes" USING btree ("position_id");--> statement-breakpoint
CREATE INDEX "positions_user_id_status_idx" ON "positions" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "positions_spread_status_idx" ON "positions" USING btree ("spread","status");