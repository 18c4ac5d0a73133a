CREATE TABLE `alert_firings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`alert_id` integer,
	`symbol` text NOT NULL,
	`metric` text NOT NULL,
	`value` real NOT NULL,
	`threshold` real NOT NULL,
	`direction` text NOT NULL,
	`state` text NOT NULL,
	`source` text DEFAULT 'server' NOT NULL,
	`note` text,
	`fired_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`alert_id`) REFERENCES `alerts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `alert_firings_user_fired_idx` ON `alert_firings` (`user_id`,`fired_at`,`id`);--> statement-breakpoint
CREATE TABLE `user_webhooks` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`secret` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `alerts` ADD `metric` text DEFAULT 'spread' NOT NULL;--> statement-breakpoint
ALTER TABLE `alerts` ADD `hysteresis` real;--> statement-breakpoint
ALTER TABLE `alerts` ADD `webhook_notify` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `alerts` ADD `last_fired_side` text;--> statement-breakpoint
ALTER TABLE `alerts` ADD `disabled_reason` text;--> statement-breakpoint
ALTER TABLE `telegram_outbox` ADD `channel` text DEFAULT 'telegram' NOT NULL;--> statement-breakpoint
ALTER TABLE `telegram_outbox` ADD `firing_id` integer REFERENCES alert_firings(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `telegram_outbox_firing_idx` ON `telegram_outbox` (`firing_id`);