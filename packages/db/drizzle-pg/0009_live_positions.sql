ALTER TABLE "positions" ADD COLUMN "execution_id" text;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "slippage_ticks" double precision;--> statement-breakpoint
CREATE UNIQUE INDEX "positions_execution_id_idx" ON "positions" USING btree ("execution_id");