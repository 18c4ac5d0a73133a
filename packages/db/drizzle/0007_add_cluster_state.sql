CREATE TABLE `key_values` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `spread_marks` (
	`symbol` text PRIMARY KEY NOT NULL,
	`spread` real NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `telegram_outbox` ADD `claimed_by` text;--> statement-breakpoint
ALTER TABLE `telegram_outbox` ADD `claimed_until` integer;