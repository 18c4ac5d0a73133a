import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { isBookSource, isInstrumentKey, shippedInstrument } from "@spreadwatch/core";
import { z } from "zod";
import { DOT_PATH } from "./http-json/http-json.ts";
import { KITE_KEYS, kiteTarget } from "./kite/instruments.ts";
import { istDate, isValidTimeZone, MCX_HOURS } from "./market-hours.ts";
import { groupOf } from "./quote-keys.ts";
import { defaultYahooSymbol, YAHOO_BASE_URL, YAHOO_MIN_POLL_MS } from "./yahoo/yahoo.ts";

/** The market data config file (MARKET_DATA_CONFIG), checked whole before the server starts. */
export class MarketDataConfigError extends Error {
  override name = "MarketDataConfigError";
}

const seconds = z
  .number({ error: "must be a number of seconds" })
  .positive("must be more than 0 seconds");
/** Any catalogue key (docs/instruments.md): GOLD, GOLD@next, ZINC, BZ, or an admin's own. */
const key = z
  .string({ error: "must be an instrument key such as GOLD, GOLD@next or ZINC" })
  .refine(isInstrumentKey, "must be an instrument key such as GOLD, GOLD@next or ZINC");
const dotPath = z
  .string({ error: "must be a dot path such as data.last" })
  .regex(DOT_PATH, "must be a dot path such as data.last");
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM (24-hour)");

const backoff = z
  .object({ initialSeconds: seconds.default(1), maxSeconds: seconds.default(60) })
  .strict()
  .default({ initialSeconds: 1, maxSeconds: 60 });

const hours = z.union(
  [
    z.literal("always"),
    z
      .object({
        timeZone: z.string().refine(isValidTimeZone, "is not a known time zone"),
        days: z.array(z.number().int().min(0).max(6)).min(1),
        open: hhmm,
        close: hhmm,
      })
      .strict(),
  ],
  { error: 'must be "always" or { timeZone, days, open, close }' },
);

/**
 * `silenceSeconds`: without a new quote for this long the provider is `stale` (FEED_SILENCE_SECONDS
 * when absent). `staleAfterSeconds` is its older name, still read.
 */
const silence = { silenceSeconds: seconds.optional(), staleAfterSeconds: seconds.optional() };

const common = { ...silence, backoff };

/** Kite allows this many ticker WebSocket connections per API key; every kite provider opens one. */
export const KITE_CONNECTIONS_PER_API_KEY = 3;

const kite = z
  .object({
    type: z.literal("kite"),
    keys: z
      .array(
        key.superRefine((k, ctx) => {
          const target = kiteTarget(k, shippedInstrument(k));
          if ("missing" in target)
            ctx.addIssue({ code: "custom", message: `${k}: ${target.missing}` });
        }),
      )
      .min(1)
      .default([...KITE_KEYS]),
    rollDaysBeforeExpiry: z.number().int().min(0).max(60).default(3),
    hours: hours.default(MCX_HOURS as z.infer<typeof hours>),
    refreshSeconds: seconds.default(900),
    tokenCheckSeconds: seconds.default(10),
    timeoutSeconds: seconds.default(15),
    ...common,
  })
  .strict();

const YAHOO_DEFAULT_KEYS = ["GC", "SI", "HG", "NG", "CL", "XAUUSD", "XAGUSD"];

const yahoo = z
  .object({
    type: z.literal("yahoo"),
    keys: z.array(key).min(1).default(YAHOO_DEFAULT_KEYS),
    symbols: z.partialRecord(key, z.string().trim().min(1)).default({}),
    baseUrl: z.url().default(YAHOO_BASE_URL),
    cookieUrl: z.url().default("https://fc.yahoo.com"),
    crumb: z.boolean().default(true),
    pollSeconds: seconds.default(5),
    timeoutSeconds: seconds.default(10),
    ...common,
  })
  .strict()
  .superRefine((p, ctx) => {
    // The floor protects Yahoo; a proxy or a test double may be polled faster.
    if (
      new URL(p.baseUrl).hostname.endsWith("yahoo.com") &&
      p.pollSeconds * 1000 < YAHOO_MIN_POLL_MS
    )
      ctx.addIssue({
        code: "custom",
        path: ["pollSeconds"],
        message: "must be at least 2 against Yahoo",
      });
    const today = istDate(Date.now());
    for (const k of p.keys) {
      if (!p.symbols[k] && !defaultYahooSymbol(k, today))
        ctx.addIssue({
          code: "custom",
          path: ["symbols", k],
          message: `Yahoo has no default symbol for ${k}: give one`,
        });
    }
  });

const mapping = z
  .object({
    key,
    price: dotPath.optional(),
    bid: dotPath.optional(),
    ask: dotPath.optional(),
    ts: dotPath.optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (!m.price && !m.bid && !m.ask)
      ctx.addIssue({ code: "custom", path: ["price"], message: "is required (or bid and ask)" });
    const group = groupOf(shippedInstrument(m.key));
    if (group && !isBookSource(group) && (m.bid || m.ask))
      ctx.addIssue({
        code: "custom",
        path: ["bid"],
        message: `${m.key} is a single price: map price, not bid/ask`,
      });
  });

const httpJson = z
  .object({
    type: z.literal("http-json"),
    url: z.url(),
    headers: z.record(z.string(), z.string()).default({}),
    quotes: z.array(mapping).min(1),
    delayed: z.boolean().default(false),
    pollSeconds: seconds.default(5),
    timeoutSeconds: seconds.default(10),
    ...common,
  })
  .strict();

const provider = z.discriminatedUnion("type", [kite, yahoo, httpJson], {
  error: "must be one of: kite, yahoo, http-json",
});

function bothNames(
  at: { silenceSeconds?: number | undefined; staleAfterSeconds?: number | undefined },
  path: string[],
  ctx: z.RefinementCtx,
): void {
  if (at.silenceSeconds !== undefined && at.staleAfterSeconds !== undefined)
    ctx.addIssue({
      code: "custom",
      path: [...path, "staleAfterSeconds"],
      message: "is the older name of silenceSeconds: give one of them",
    });
}

const fileSchema = z
  .object({
    ...silence,
    providers: z
      .record(
        z.string().regex(/^[A-Za-z0-9][\w-]{0,31}$/, "provider names are letters, digits, - and _"),
        provider,
      )
      .refine((p) => Object.keys(p).length > 0, "must name at least one provider"),
  })
  .strict()
  .superRefine((file, ctx) => {
    bothNames(file, [], ctx);
    for (const [name, p] of Object.entries(file.providers)) bothNames(p, ["providers", name], ctx);
    const kites = Object.entries(file.providers).filter(([, p]) => p.type === "kite");
    if (kites.length > KITE_CONNECTIONS_PER_API_KEY)
      ctx.addIssue({
        code: "custom",
        path: ["providers"],
        message: `${kites.length} kite providers (${kites.map(([n]) => n).join(", ")}) would open ${kites.length} ticker connections with one KITE_API_KEY; Kite allows at most ${KITE_CONNECTIONS_PER_API_KEY} per API key: put their keys in fewer kite providers`,
      });
    const owner = new Map<string, string>();
    for (const [name, p] of Object.entries(file.providers)) {
      for (const k of keysOf(p)) {
        const other = owner.get(k);
        if (other)
          ctx.addIssue({
            code: "custom",
            path: ["providers", name],
            message: `${k} is already taken from ${other}; each key comes from one provider`,
          });
        owner.set(k, name);
      }
    }
  });

export type MarketDataConfig = z.infer<typeof fileSchema>;
export type ProviderConfig = MarketDataConfig["providers"][string];

/** A provider's silence window in seconds: its own, else the file's, else FEED_SILENCE_SECONDS. */
export function silenceSecondsOf(
  p: ProviderConfig | MarketDataConfig,
  fallbackSeconds: number,
): number {
  return p.silenceSeconds ?? p.staleAfterSeconds ?? fallbackSeconds;
}

export function keysOf(p: ProviderConfig): string[] {
  return p.type === "http-json" ? p.quotes.map((q) => q.key) : p.keys;
}

/** Without a file: MCX, NIFTY 50 and USDINR from Kite; CME and spot metals from Yahoo. */
export const DEFAULT_MARKET_DATA = {
  providers: { kite: { type: "kite" }, yahoo: { type: "yahoo" } },
};

/** `${NAME}` in header values comes from the environment, so tokens stay out of the file. */
function substituteEnv(config: MarketDataConfig, env: Record<string, string | undefined>): void {
  for (const [name, p] of Object.entries(config.providers)) {
    if (p.type !== "http-json") continue;
    for (const [header, value] of Object.entries(p.headers)) {
      p.headers[header] = value.replace(/\$\{(\w+)\}/g, (_, variable: string) => {
        const found = env[variable];
        if (found === undefined)
          throw new MarketDataConfigError(
            `providers.${name}.headers.${header}: environment variable ${variable} is not set`,
          );
        return found;
      });
    }
  }
}

export function parseMarketDataConfig(
  json: unknown,
  env: Record<string, string | undefined> = process.env,
): MarketDataConfig {
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.map(String).join(".");
    throw new MarketDataConfigError(`${where ? `${where}: ` : ""}${issue?.message ?? "invalid"}`);
  }
  substituteEnv(parsed.data, env);
  return parsed.data;
}

/** Reads MARKET_DATA_CONFIG (relative to where pnpm was started), or the defaults without one. */
export function loadMarketDataConfig(
  file: string | undefined,
  env: Record<string, string | undefined> = process.env,
): MarketDataConfig {
  if (!file) return parseMarketDataConfig(DEFAULT_MARKET_DATA, env);
  const path = resolve(env.INIT_CWD ?? process.cwd(), file);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT"
        ? "file not found"
        : `not valid JSON (${(error as Error).message})`;
    throw new MarketDataConfigError(`${file}: ${reason}`);
  }
  try {
    return parseMarketDataConfig(json, env);
  } catch (error) {
    throw new MarketDataConfigError(`${file}: ${(error as Error).message}`);
  }
}
