CREATE TABLE `position_closes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`position_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`lots` integer NOT NULL,
	`exit` real NOT NULL,
	`realised_inr` real NOT NULL,
	`closed_at` integer NOT NULL,
	`reason` text NOT NULL,
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `position_closes_user_id_idx` ON `position_closes` (`user_id`,`closed_at`);--> statement-breakpoint
CREATE INDEX `position_closes_position_id_idx` ON `position_closes` (`position_id`);--> statement-breakpoint
CREATE TABLE `positions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`spread` text NOT NULL,
	`side` text NOT NULL,
	`lots` integer NOT NULL,
	`entry` real NOT NULL,
	`units` real NOT NULL,
	`legs` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`target_inr` real,
	`stop_inr` real,
	`opened_at` integer NOT NULL,
	`campaign_id` integer NOT NULL,
	`rolled_from_id` integer,
	`status` text DEFAULT 'open' NOT NULL,
	`closed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `positions_user_id_status_idx` ON `positions` (`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `positions_spread_status_idx` ON `positions` (`spread`,`status`);