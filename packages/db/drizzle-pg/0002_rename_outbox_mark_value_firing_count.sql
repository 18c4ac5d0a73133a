-- By hand (drizzle-kit 0.31 fails on a renamed table whose identity changes name); its snapshot is drizzle-kit's own of the schema.
ALTER TABLE "telegram_outbox" RENAME TO "outbox";--> statement-breakpoint
ALTER SEQUENCE "telegram_outbox_id_seq" RENAME TO "outbox_id_seq";--> statement-breakpoint
ALTER TABLE "outbox" RENAME CONSTRAINT "telegram_outbox_pkey" TO "outbox_pkey";--> statement-breakpoint
ALTER TABLE "outbox" RENAME CONSTRAINT "telegram_outbox_user_id_users_id_fk" TO "outbox_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "outbox" RENAME CONSTRAINT "telegram_outbox_alert_id_alerts_id_fk" TO "outbox_alert_id_alerts_id_fk";--> statement-breakpoint
ALTER TABLE "outbox" RENAME CONSTRAINT "telegram_outbox_firing_id_alert_firings_id_fk" TO "outbox_firing_id_alert_firings_id_fk";--> statement-breakpoint
ALTER INDEX "telegram_outbox_pending_idx" RENAME TO "outbox_pending_idx";--> statement-breakpoint
ALTER INDEX "telegram_outbox_firing_idx" RENAME TO "outbox_firing_idx";--> statement-breakpoint
ALTER TABLE "alerts" RENAME COLUMN "telegram_notification_count" TO "server_firing_count";--> statement-breakpoint
ALTER TABLE "spread_marks" RENAME COLUMN "spread" TO "value";
