CREATE TABLE `session_ends` (
	`session_id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`reason` text NOT NULL,
	`ended_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `session_ends_ended_at_idx` ON `session_ends` (`ended_at`);