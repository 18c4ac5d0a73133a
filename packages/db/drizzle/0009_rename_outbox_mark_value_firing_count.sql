-- Hand-checked: drizzle-kit rebuilt the renamed table to rename its indexes; renaming them in place keeps every row and id.
ALTER TABLE `telegram_outbox` RENAME TO `outbox`;--> statement-breakpoint
ALTER TABLE `alerts` RENAME COLUMN `telegram_notification_count` TO `server_firing_count`;--> statement-breakpoint
ALTER TABLE `spread_marks` RENAME COLUMN `spread` TO `value`;--> statement-breakpoint
DROP INDEX `telegram_outbox_pending_idx`;--> statement-breakpoint
DROP INDEX `telegram_outbox_firing_idx`;--> statement-breakpoint
CREATE INDEX `outbox_pending_idx` ON `outbox` (`sent_at`,`failed_at`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `outbox_firing_idx` ON `outbox` (`firing_id`);
