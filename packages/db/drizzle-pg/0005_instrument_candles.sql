CREATE TABLE "instrument_candles" (
	"symbol" text NOT NULL,
	"timeframe" text NOT NULL,
	"timestamp" bigint NOT NULL,
	"open" double precision NOT NULL,
	"high" double precision NOT NULL,
	"low" double precision NOT NULL,
	"close" double precision NOT NULL,
	CONSTRAINT "instrument_candles_symbol_timeframe_timestamp_pk" PRIMARY KEY("symbol","timeframe","timestamp")
);
