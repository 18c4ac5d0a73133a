CREATE TABLE `alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`commodity_type` text NOT NULL,
	`threshold` real NOT NULL,
	`direction` text DEFAULT 'reaches' NOT NULL,
	`sound_id` text DEFAULT 'beep' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`telegram_notify` integer DEFAULT false NOT NULL,
	`max_notifications` integer DEFAULT 1 NOT NULL,
	`telegram_notification_count` integer DEFAULT 0 NOT NULL,
	`notification_count` integer DEFAULT 0 NOT NULL,
	`last_triggered` integer,
	`last_telegram_triggered` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alerts_user_id_idx` ON `alerts` (`user_id`);--> statement-breakpoint
CREATE INDEX `alerts_commodity_enabled_idx` ON `alerts` (`commodity_type`,`enabled`);--> statement-breakpoint
CREATE TABLE `telegram_links` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`chat_id` text NOT NULL,
	`connected_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `telegram_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`alert_id` integer,
	`chat_id` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`sent_at` integer,
	`failed_at` integer,
	`last_error` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`alert_id`) REFERENCES `alerts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `telegram_outbox_pending_idx` ON `telegram_outbox` (`sent_at`,`failed_at`,`next_attempt_at`);