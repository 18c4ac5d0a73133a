CREATE TABLE `contract_candles` (
	`key` text NOT NULL,
	`contract` text NOT NULL,
	`timestamp` integer NOT NULL,
	`open` real NOT NULL,
	`high` real NOT NULL,
	`low` real NOT NULL,
	`close` real NOT NULL,
	`source` text NOT NULL,
	PRIMARY KEY(`contract`, `timestamp`)
);
--> statement-breakpoint
CREATE INDEX `contract_candles_key_timestamp_idx` ON `contract_candles` (`key`,`timestamp`);