CREATE TABLE `executions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`spread` text NOT NULL,
	`status` text NOT NULL,
	`doc` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `executions_status_idx` ON `executions` (`status`);--> statement-breakpoint
CREATE INDEX `executions_user_id_idx` ON `executions` (`user_id`,`created_at`);