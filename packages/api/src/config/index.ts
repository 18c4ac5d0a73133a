import { INSTRUMENT_IDS, type InstrumentId } from "@spreadwatch/core";
import { z } from "zod";
import {
  CLUSTER_URL_NAMES,
  checkClusterEnv,
  clusterEnvShape,
  redactUrl,
  toClusterConfig,
} from "./cluster.ts";
import { ConfigError } from "./config-error.ts";
import { costEnvShape, costRatesFrom } from "./costs.ts";
import { marginEnvShape, marginRatesFrom, unknownMarginNames } from "./margins.ts";
import { passwordCost } from "./password-cost.ts";

const port = z.coerce
  .number({ error: "must be a whole number from 0 to 65535" })
  .int("must be a whole number from 0 to 65535")
  .min(0, "must be a whole number from 0 to 65535")
  .max(65535, "must be a whole number from 0 to 65535");

const fraction = z.coerce
  .number({ error: "must be a number such as 0.06 for 6 %" })
  .min(0, "must be a fraction from 0 to 1 (0.06 = 6 %)")
  .max(1, "must be a fraction from 0 to 1 (0.06 = 6 %)");

const optionalText = z
  .string()
  .trim()
  .transform((s) => (s === "" ? undefined : s))
  .optional();

const dutyShape = Object.fromEntries(
  INSTRUMENT_IDS.map((id) => [`DUTY_${id}`, fraction.optional()]),
);

export const FEEDS = ["simulator", "replay", "composite"] as const;

const url = optionalText.pipe(z.url("must be a URL").optional());

const envSchema = z
  .object({
    PORT: port.default(3000),
    HOST: z.string().trim().min(1, "must not be empty").default("127.0.0.1"),
    DATA_DIR: z.string().trim().min(1, "must not be empty").default("./data"),
    FEED: z.enum(FEEDS, { error: `must be one of: ${FEEDS.join(", ")}` }).default("simulator"),
    REPLAY_FILE: optionalText,
    REPLAY_SPEED: z.coerce
      .number({ error: "must be a number ≥ 0 (0 = as fast as possible)" })
      .min(0, "must be a number ≥ 0 (0 = as fast as possible)")
      .default(1),
    FEED_SILENCE_SECONDS: z.coerce
      .number({ error: "must be a number of seconds > 0 (a feed silent this long is stale)" })
      .positive("must be a number of seconds > 0 (a feed silent this long is stale)")
      .default(10),
    SESSION_SECRET: optionalText.pipe(
      z.string().min(32, "must be at least 32 characters").optional(),
    ),
    HISTORY_RETENTION_DAYS: z.coerce
      .number({ error: "must be a number of days > 0" })
      .positive("must be a number of days > 0")
      .default(400),
    HISTORY_FETCH_DAYS: z.coerce
      .number({ error: "must be a whole number of days from 1 to 60" })
      .int("must be a whole number of days from 1 to 60")
      .min(1, "must be a whole number of days from 1 to 60")
      .max(60, "must be a whole number of days from 1 to 60")
      .default(20),
    HISTORY_FETCH_TIMEOUT_SECONDS: z.coerce
      .number({ error: "must be a number of seconds > 0" })
      .positive("must be a number of seconds > 0")
      .default(30),
    HISTORY_FETCH_CHECK_SECONDS: z.coerce
      .number({ error: "must be a number of seconds > 0" })
      .positive("must be a number of seconds > 0")
      .default(5),
    SESSION_IDLE_DAYS: z.coerce
      .number({ error: "must be a number of days > 0" })
      .positive("must be a number of days > 0")
      .default(7),
    COOKIE_SECURE: z
      .enum(["true", "false", "1", "0"], { error: "must be true or false" })
      .default("false")
      .transform((v) => v === "true" || v === "1"),
    WEBHOOK_ALLOW_PRIVATE: z
      .enum(["true", "false", "1", "0"], { error: "must be true or false" })
      .default("false")
      .transform((v) => v === "true" || v === "1"),
    ADMIN_USERNAME: optionalText.pipe(
      z
        .string()
        .regex(
          /^[A-Za-z0-9._-]{1,32}$/,
          "must be 1–32 letters, digits, dots, underscores or dashes",
        )
        .optional(),
    ),
    ADMIN_PASSWORD: optionalText.pipe(
      z.string().min(8, "must be at least 8 characters").optional(),
    ),
    PASSWORD_HASH_COST: passwordCost,
    TELEGRAM_BOT_TOKEN: optionalText,
    TELEGRAM_BOT_USERNAME: optionalText,
    TELEGRAM_API_ROOT: optionalText.pipe(z.url("must be a URL").optional()),
    MARKET_DATA_CONFIG: optionalText,
    KITE_API_KEY: optionalText,
    KITE_API_SECRET: optionalText,
    KITE_API_ROOT: url,
    KITE_WS_ROOT: url,
    KITE_LOGIN_URL: url,
    TRUST_PROXY: z
      .string()
      .trim()
      .regex(/^(true|false|\d{1,2})$/, "must be false, true (one proxy) or a number of proxies")
      .default("false")
      .transform((v) => (v === "true" ? 1 : v === "false" ? 0 : Number(v))),
    STREAM_LIMIT_PER_ADDRESS: z.coerce
      .number({ error: "must be a whole number ≥ 0 (0 = no limit)" })
      .int("must be a whole number ≥ 0 (0 = no limit)")
      .min(0, "must be a whole number ≥ 0 (0 = no limit)")
      .default(20),
    STREAM_PROCESSES: z.coerce
      .number({ error: "must be 0, 1 or 2" })
      .int("must be 0, 1 or 2")
      .min(0, "must be 0, 1 or 2")
      .max(2, "must be 0, 1 or 2")
      // Off by default: on a quiet machine the fan-out process was 2.2–2.8× the floor's p99 at
      // 100–1,000 clients but 36× at 10,000 with half the clients connected (BENCHMARKS.md §22).
      .default(0),
    STREAM_BLOCKED_DROP_SECONDS: z.coerce
      .number({ error: "must be a number of seconds > 0" })
      .positive("must be a number of seconds > 0")
      .default(30),
    METRICS_TOKEN: optionalText.pipe(
      z
        .string()
        .min(16, "must be at least 16 characters (e.g. the output of: openssl rand -hex 32)")
        .regex(
          /^[\x21-\x7e]+$/,
          "must be printable ASCII without spaces (it is sent as a Bearer token)",
        )
        .optional(),
    ),
    ...dutyShape,
    ...costEnvShape,
    ...marginEnvShape,
    ...clusterEnvShape,
  })
  .superRefine((env, ctx) => {
    checkClusterEnv(env, ctx);
    if (env.FEED === "replay" && !env.REPLAY_FILE) {
      ctx.addIssue({
        code: "custom",
        path: ["REPLAY_FILE"],
        message: "is required when FEED=replay",
      });
    }
    // The login flow needs both halves; one without the other is a typo, not a choice.
    if (Boolean(env.KITE_API_KEY) !== Boolean(env.KITE_API_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: [env.KITE_API_KEY ? "KITE_API_SECRET" : "KITE_API_KEY"],
        message: "is required when the other of KITE_API_KEY and KITE_API_SECRET is set",
      });
    }
  });

type Env = z.infer<typeof envSchema>;

/** The server's settings, as toConfig makes them from the validated environment. */
export type Config = ReturnType<typeof toConfig>;

/** Kite Connect app credentials and endpoints; the day's access token lives in DATA_DIR. */
export interface KiteSettings {
  apiKey: string | undefined;
  apiSecret: string | undefined;
  apiRoot: string;
  wsRoot: string;
  loginUrl: string;
}

const SECRET_NAMES = new Set([
  "SESSION_SECRET",
  "ADMIN_PASSWORD",
  "TELEGRAM_BOT_TOKEN",
  "KITE_API_KEY",
  "KITE_API_SECRET",
  "METRICS_TOKEN",
]);

const URL_NAMES = new Set<string>(CLUSTER_URL_NAMES);

/** Echo the offending value to help the operator, except for secrets (and a URL's password). */
function describe(name: string, value: unknown): string {
  if (value === undefined || SECRET_NAMES.has(name)) return "";
  if (URL_NAMES.has(name)) return ` (got ${JSON.stringify(redactUrl(String(value)))})`;
  return ` (got ${JSON.stringify(value)})`;
}

/**
 * Reads and validates docs/design.md §5's and §9's settings from an environment; throws one ConfigError
 * naming every bad value, so an operator fixes them all in one go.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // An empty variable (PORT=) means "not set", as in most shells' config files.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = envSchema.safeParse(present);
  // A mistyped margin setting would otherwise leave its default in place unseen.
  const unknownMargins = unknownMarginNames(present).map(
    (name) =>
      `Invalid ${name}: sets nothing (margin settings are MARGIN_MCX_SHARE, MARGIN_MCX_<ROOT>_SHARE and MARGIN_US_<ROOT>_USD)`,
  );
  if (!parsed.success || unknownMargins.length > 0) {
    throw new ConfigError([
      ...(parsed.error?.issues ?? []).map((issue) => {
        const name = String(issue.path[0] ?? "configuration");
        return `Invalid ${name}: ${issue.message}${describe(name, env[name])}`;
      }),
      ...unknownMargins,
    ]);
  }
  return toConfig(parsed.data);
}

function toConfig(env: Env) {
  const duties: Partial<Record<InstrumentId, number>> = {};
  for (const id of INSTRUMENT_IDS) {
    const value = (env as Record<string, unknown>)[`DUTY_${id}`];
    if (typeof value === "number") duties[id] = value;
  }
  const telegram: { botToken?: string; botUsername?: string; apiRoot?: string } = {};
  if (env.TELEGRAM_BOT_TOKEN) telegram.botToken = env.TELEGRAM_BOT_TOKEN;
  if (env.TELEGRAM_BOT_USERNAME) telegram.botUsername = env.TELEGRAM_BOT_USERNAME;
  if (env.TELEGRAM_API_ROOT) telegram.apiRoot = env.TELEGRAM_API_ROOT;
  const kite: KiteSettings = {
    apiKey: env.KITE_API_KEY,
    apiSecret: env.KITE_API_SECRET,
    apiRoot: (env.KITE_API_ROOT ?? "https://api.kite.trade").replace(/\/+$/, ""),
    wsRoot: env.KITE_WS_ROOT ?? "wss://ws.kite.trade",
    loginUrl: env.KITE_LOGIN_URL ?? "https://kite.zerodha.com/connect/login",
  };
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir: env.DATA_DIR,
    feed: env.FEED,
    replayFile: env.REPLAY_FILE,
    replaySpeed: env.REPLAY_SPEED,
    /** A feed (or provider) with no new quote for this long is stale; MARKET_DATA_CONFIG may override per provider. */
    feedSilenceMs: Math.round(env.FEED_SILENCE_SECONDS * 1000),
    sessionSecret: env.SESSION_SECRET,
    /** 1-minute candles older than this are pruned (coarser timeframes are kept). */
    historyRetentionMs: env.HISTORY_RETENTION_DAYS * 24 * 60 * 60 * 1000,
    /**
     * FEED=composite: the providers' past fetched for each instrument in use (the statistics
     * window), each request's time limit, and how often the leader looks for keys to fetch.
     */
    historyFetch: {
      days: env.HISTORY_FETCH_DAYS,
      timeoutMs: Math.round(env.HISTORY_FETCH_TIMEOUT_SECONDS * 1000),
      checkMs: Math.round(env.HISTORY_FETCH_CHECK_SECONDS * 1000),
    },
    /** A session unused for this long is ended. */
    sessionIdleMs: env.SESSION_IDLE_DAYS * 24 * 60 * 60 * 1000,
    /** Mark the session cookie Secure (serve over HTTPS, e.g. behind a TLS proxy). */
    cookieSecure: env.COOKIE_SECURE,
    /**
     * Webhooks may use http:// and loopback/private addresses (tests, private deployments);
     * link-local ones (169.254.0.0/16, fe80::/10: cloud metadata) stay refused.
     */
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
    adminUsername: env.ADMIN_USERNAME,
    adminPassword: env.ADMIN_PASSWORD,
    passwordCost: env.PASSWORD_HASH_COST,
    telegram,
    /** Import duty per instrument, only where overridden; the rest use core's defaults. */
    duties,
    /** perLot's round-trip cost rates: COST_* over core's defaults (config/costs.ts). */
    costRates: costRatesFrom(env),
    /** Positions' configured margin rates: MARGIN_* over core's defaults (config/margins.ts). */
    marginRates: marginRatesFrom(env),
    /** FEED=composite: the JSON file naming each key's provider; defaults apply without one. */
    marketDataConfig: env.MARKET_DATA_CONFIG,
    kite,
    /** How many reverse proxies in front of us append to X-Forwarded-For (0 = trust none). */
    trustedProxies: env.TRUST_PROXY,
    /** Live streams one client address may hold; 0 = no limit. */
    streamLimitPerAddress: env.STREAM_LIMIT_PER_ADDRESS,
    /** Fan-out processes writing the live stream's frames (0: the server's own loop does). */
    streamProcesses: env.STREAM_PROCESSES,
    /** A live stream whose client has not read for this long is dropped. */
    streamBlockedDropMs: env.STREAM_BLOCKED_DROP_SECONDS * 1000,
    /** Set: GET /metrics serves Prometheus text to `Authorization: Bearer <token>`; unset: no such path. */
    metricsToken: env.METRICS_TOKEN,
    /** DATABASE_URL, REDIS_URL, INSTANCE_ROLE, INSTANCE_ID (docs/design.md §9). */
    ...toClusterConfig(env),
  };
}

export { ConfigError };
