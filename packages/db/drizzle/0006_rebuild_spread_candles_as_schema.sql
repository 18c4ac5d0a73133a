-- 0003 was edited by hand to make spread_candles WITHOUT ROWID, which drizzle cannot express, so
-- drizzle-kit's snapshot described a different table than the file made. This rebuilds the table
-- as the schema (and the snapshot) says, the way drizzle-kit itself recreates SQLite tables.
CREATE TABLE `__new_spread_candles` (
	`symbol` text NOT NULL,
	`timeframe` text NOT NULL,
	`timestamp` integer NOT NULL,
	`open` real NOT NULL,
	`high` real NOT NULL,
	`low` real NOT NULL,
	`close` real NOT NULL,
	PRIMARY KEY(`symbol`, `timeframe`, `timestamp`)
);
--> statement-breakpoint
INSERT INTO `__new_spread_candles` SELECT `symbol`, `timeframe`, `timestamp`, `open`, `high`, `low`, `close` FROM `spread_candles`;
--> statement-breakpoint
DROP TABLE `spread_candles`;
--> statement-breakpoint
ALTER TABLE `__new_spread_candles` RENAME TO `spread_candles`;
