import type { Quote } from "@spreadwatch/core";
import type { Feed } from "../feed.ts";
import { describeError } from "./health.ts";
import { defaultLogger, type Logger, type Provider } from "./provider.ts";

/**
 * Several providers behind one feed, each key taken from exactly one of them: a quote for a key
 * routed elsewhere is dropped, so two sources never fight over a row.
 */
export function createCompositeFeed(
  providers: readonly { provider: Provider; keys: readonly string[] }[],
  options: { staleAfterMs?: number; log?: Logger } = {},
): Feed {
  const log = options.log ?? defaultLogger;
  const owner = new Map<string, Provider>();
  for (const { provider, keys } of providers) for (const key of keys) owner.set(key, provider);

  return {
    name: "composite",
    ...(options.staleAfterMs !== undefined && { staleAfterMs: options.staleAfterMs }),
    start(onQuote) {
      for (const { provider } of providers) {
        const deliver = (quote: Quote) => {
          if (owner.get(quote.key) !== provider) return;
          try {
            onQuote(quote);
          } catch (error) {
            log(`${provider.name}: a quote could not be delivered: ${describeError(error)}`);
          }
        };
        try {
          provider.start(deliver);
        } catch (error) {
          log(`${provider.name}: could not start: ${describeError(error)}`);
        }
      }
    },
    async stop() {
      await Promise.all(
        providers.map(async ({ provider }) => {
          try {
            await provider.stop();
          } catch (error) {
            log(`${provider.name}: could not stop cleanly: ${describeError(error)}`);
          }
        }),
      );
    },
    health: () => providers.map(({ provider }) => provider.health()),
  };
}
