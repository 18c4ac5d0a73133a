CREATE TABLE "contract_candles" (
	"key" text NOT NULL,
	"contract" text NOT NULL,
	"timestamp" bigint NOT NULL,
	"open" double precision NOT NULL,
	"high" double precision NOT NULL,
	"low" double precision NOT NULL,
	"close" double precision NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "contract_candles_contract_timestamp_pk" PRIMARY KEY("contract","timestamp")
);
--> statement-breakpoint
CREATE INDEX "contract_candles_key_timestamp_idx" ON "contract_candles" USING btree ("key","timestamp");