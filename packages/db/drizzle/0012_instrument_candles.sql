CREATE TABLE `instrument_candles` (
	`symbol` text NOT NULL,
	`timeframe` text NOT NULL,
	`timestamp` integer NOT NULL,
	`open` real NOT NULL,
	`high` real NOT NULL,
	`low` real NOT NULL,
	`close` real NOT NULL,
	PRIMARY KEY(`symbol`, `timeframe`, `timestamp`)
);
