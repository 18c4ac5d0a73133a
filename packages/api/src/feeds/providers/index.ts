import type { Config } from "../../config/index.ts";
import type { Feed } from "../feed.ts";
import { createCompositeFeed } from "./composite.ts";
import {
  keysOf,
  loadMarketDataConfig,
  type ProviderConfig,
  silenceSecondsOf,
} from "./config-file.ts";
import { createHttpJsonProvider } from "./http-json/http-json.ts";
import { createKiteProvider } from "./kite/kite.ts";
import type { KiteSessions } from "./kite/session.ts";
import type { Logger, Provider } from "./provider.ts";
import { createYahooProvider } from "./yahoo/yahoo.ts";

const ms = (seconds: number) => Math.round(seconds * 1000);

/** What providers read from the store: built after it opens, before the feed is (startServer). */
export interface FeedSources {
  kiteSessions: Pick<KiteSessions, "read">;
}

function createProvider(
  name: string,
  p: ProviderConfig,
  config: Config,
  sources: FeedSources,
  fileSilenceSeconds: number,
  log: Logger | undefined,
): Provider {
  const silenceMs = ms(silenceSecondsOf(p, fileSilenceSeconds));
  const shared = {
    name,
    staleAfterMs: silenceMs,
    backoff: { initialMs: ms(p.backoff.initialSeconds), maxMs: ms(p.backoff.maxSeconds) },
    timeoutMs: ms(p.timeoutSeconds),
    ...(log && { log }),
  };
  switch (p.type) {
    case "kite":
      return createKiteProvider({
        ...shared,
        keys: p.keys,
        settings: config.kite,
        sessions: sources.kiteSessions,
        rollDaysBeforeExpiry: p.rollDaysBeforeExpiry,
        silenceMs,
        hours: p.hours,
        refreshMs: ms(p.refreshSeconds),
        tokenCheckMs: ms(p.tokenCheckSeconds),
      });
    case "yahoo":
      return createYahooProvider({
        ...shared,
        keys: p.keys,
        symbols: p.symbols as Record<string, string>,
        baseUrl: p.baseUrl,
        cookieUrl: p.cookieUrl,
        crumb: p.crumb,
        pollMs: ms(p.pollSeconds),
      });
    case "http-json":
      return createHttpJsonProvider({
        ...shared,
        url: p.url,
        headers: p.headers,
        quotes: p.quotes,
        delayed: p.delayed,
        pollMs: ms(p.pollSeconds),
      });
  }
}

/** FEED=composite: the providers of MARKET_DATA_CONFIG (or the defaults), each key from one. */
export function createMarketDataFeed(config: Config, sources: FeedSources, log?: Logger): Feed {
  const file = loadMarketDataConfig(config.marketDataConfig);
  const fileSilenceSeconds = silenceSecondsOf(file, config.feedSilenceMs / 1000);
  const providers = Object.entries(file.providers).map(([name, p]) => ({
    provider: createProvider(name, p, config, sources, fileSilenceSeconds, log),
    kind: p.type,
    keys: keysOf(p),
  }));
  return createCompositeFeed(providers, {
    staleAfterMs: ms(fileSilenceSeconds),
    ...(log && { log }),
  });
}
