CREATE TABLE "instrument_contracts" (
	"key" text PRIMARY KEY NOT NULL,
	"contract" text NOT NULL,
	"expiry" text,
	"seen_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instrument_rolls" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "instrument_rolls_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"at" bigint NOT NULL,
	"from_contract" text NOT NULL,
	"to_contract" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instruments" (
	"key" text PRIMARY KEY NOT NULL,
	"exchange" text NOT NULL,
	"name" text NOT NULL,
	"unit" text NOT NULL,
	"currency" text NOT NULL,
	"lot_units" double precision NOT NULL,
	"tick" double precision NOT NULL,
	"decimals" integer NOT NULL,
	"month" text,
	"source_provider" text,
	"source_symbol" text,
	"created_at" bigint NOT NULL,
	"created_by" integer
);
--> statement-breakpoint
ALTER TABLE "instruments" ADD CONSTRAINT "instruments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "instrument_rolls_key_at_idx" ON "instrument_rolls" USING btree ("key","at");--> statement-breakpoint
CREATE INDEX "instrument_rolls_at_idx" ON "instrument_rolls" USING btree ("at");