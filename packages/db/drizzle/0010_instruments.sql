CREATE TABLE `instrument_contracts` (
	`key` text PRIMARY KEY NOT NULL,
	`contract` text NOT NULL,
	`expiry` text,
	`seen_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `instrument_rolls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`at` integer NOT NULL,
	`from_contract` text NOT NULL,
	`to_contract` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `instrument_rolls_key_at_idx` ON `instrument_rolls` (`key`,`at`);--> statement-breakpoint
CREATE INDEX `instrument_rolls_at_idx` ON `instrument_rolls` (`at`);--> statement-breakpoint
CREATE TABLE `instruments` (
	`key` text PRIMARY KEY NOT NULL,
	`exchange` text NOT NULL,
	`name` text NOT NULL,
	`unit` text NOT NULL,
	`currency` text NOT NULL,
	`lot_units` real NOT NULL,
	`tick` real NOT NULL,
	`decimals` integer NOT NULL,
	`month` text,
	`source_provider` text,
	`source_symbol` text,
	`created_at` integer NOT NULL,
	`created_by` integer,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
