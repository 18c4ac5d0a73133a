CREATE TABLE `login_attempts` (
	`id` integer PRIMARY KEY NOT NULL,
	`username_key` text NOT NULL,
	`address` text NOT NULL,
	`attempted_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_attempts_pair_idx` ON `login_attempts` (`username_key`,`address`,`attempted_at`);--> statement-breakpoint
CREATE INDEX `login_attempts_address_idx` ON `login_attempts` (`address`,`attempted_at`);--> statement-breakpoint
CREATE INDEX `login_attempts_attempted_at_idx` ON `login_attempts` (`attempted_at`);