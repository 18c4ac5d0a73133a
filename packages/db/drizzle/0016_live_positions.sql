ALTER TABLE `positions` ADD `execution_id` text;--> statement-breakpoint
ALTER TABLE `positions` ADD `slippage_ticks` real;--> statement-breakpoint
CREATE UNIQUE INDEX `positions_execution_id_idx` ON `positions` (`execution_id`);