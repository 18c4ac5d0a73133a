import type { Duties } from "@spreadwatch/core";
import { type Config, ConfigError } from "../config/index.ts";
import type { Feed } from "./feed.ts";
import { MarketDataConfigError } from "./providers/config-file.ts";
import { createMarketDataFeed, type FeedSources } from "./providers/index.ts";
import { createReplayFeed } from "./replay/replay.ts";
import { readReplayFile } from "./replay/replay-file.ts";
import { createSimulatorFeed } from "./simulator/simulator.ts";

export type { Feed } from "./feed.ts";
export type { FeedSources } from "./providers/index.ts";

/**
 * The feed named by FEED; a replay file is read and checked here, before anything listens.
 * `sources` are the store's (the Kite access token), so the feed is made once the store is open.
 */
export function createFeed(config: Config, duties: Duties, sources: FeedSources): Feed {
  switch (config.feed) {
    case "replay":
      return createReplayFeed({
        quotes: readReplayFile(config.replayFile ?? ""),
        speed: config.replaySpeed,
        silenceMs: config.feedSilenceMs,
      });
    case "simulator":
      return createSimulatorFeed({ duties, silenceMs: config.feedSilenceMs });
    case "composite":
      try {
        return createMarketDataFeed(config, sources);
      } catch (error) {
        if (error instanceof MarketDataConfigError)
          throw new ConfigError(`Invalid MARKET_DATA_CONFIG: ${error.message}`);
        throw error;
      }
  }
}
