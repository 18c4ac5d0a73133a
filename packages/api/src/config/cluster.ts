import { hostname } from "node:os";
import { z } from "zod";

// Kept free of imports from ./index.ts: that file spreads this fragment into its schema, and a
// cycle between the two would leave one of them undefined at load time.

/** Unset, or an empty value (DATABASE_URL=), means "not set", as in the rest of the settings. */
const optionalText = z
  .string()
  .trim()
  .transform((s) => (s === "" ? undefined : s))
  .optional();

function serviceUrl(schemes: string[]) {
  const message = `must be a URL starting with ${schemes.map((s) => `${s}://`).join(" or ")}`;
  const protocol = new RegExp(`^(${schemes.join("|")})$`);
  return optionalText.pipe(z.url({ protocol, hostname: /.+/, error: message }).optional());
}

export const INSTANCE_ROLES = ["auto", "edge"] as const;

/**
 * The cluster settings (docs/design.md §9), as fields to spread into the server's environment schema.
 * Without DATABASE_URL and REDIS_URL the server is the embedded single process.
 */
export const clusterEnvShape = {
  /** Selects PostgreSQL instead of the SQLite file in DATA_DIR. */
  DATABASE_URL: serviceUrl(["postgres", "postgresql"]),
  /** Turns on the Redis bus that carries quotes and events between instances. */
  REDIS_URL: serviceUrl(["redis", "rediss"]),
  /** `edge` never leads: it serves HTTP and streams only. */
  INSTANCE_ROLE: z
    .enum(INSTANCE_ROLES, { error: `must be one of: ${INSTANCE_ROLES.join(", ")}` })
    .default("auto"),
  /** Names the instance in logs and /api/health; unique per process by default. */
  INSTANCE_ID: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,64}$/, "must be 1–64 letters, digits, dots, colons, _ or -")
      .optional(),
  ),
};

type ClusterEnv = z.output<z.ZodObject<typeof clusterEnvShape>>;

/**
 * The rules between the cluster settings, for the server schema's superRefine: a wrong
 * combination would start a process that silently does the wrong thing. DATABASE_URL alone is
 * fine: one process on PostgreSQL with the in-process bus.
 */
export function checkClusterEnv(env: ClusterEnv, ctx: z.RefinementCtx): void {
  if (env.REDIS_URL && !env.DATABASE_URL) {
    ctx.addIssue({
      code: "custom",
      path: ["REDIS_URL"],
      message:
        "needs DATABASE_URL too: instances on a bus share their data and leader in PostgreSQL",
    });
  }
  // An edge never runs the feeds: without a shared database and bus it would show nothing.
  if (env.INSTANCE_ROLE === "edge" && !(env.DATABASE_URL && env.REDIS_URL)) {
    ctx.addIssue({
      code: "custom",
      path: ["INSTANCE_ROLE"],
      message: "edge needs DATABASE_URL and REDIS_URL: an edge only serves what a leader runs",
    });
  }
}

export function toClusterConfig(env: ClusterEnv) {
  return {
    /** Absent in the embedded mode (SQLite, in-process bus, this process leads). */
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    role: env.INSTANCE_ROLE,
    instanceId: env.INSTANCE_ID ?? `${hostname()}-${process.pid}`,
  };
}

/** The cluster settings on their own; the server's schema spreads clusterEnvShape instead. */
export const clusterEnvSchema = z
  .object(clusterEnvShape)
  .superRefine(checkClusterEnv)
  .transform(toClusterConfig);

export type ClusterConfig = z.output<typeof clusterEnvSchema>;

/** Settings whose values may hold a password, so an error message must not echo them whole. */
export const CLUSTER_URL_NAMES = ["DATABASE_URL", "REDIS_URL"] as const;

/** The URL without its password, for logs and error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return "(an unparsable URL)";
  }
}
