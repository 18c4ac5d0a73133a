import { connect } from "node:net";
import { type ClusterConfig, redactUrl } from "./cluster.ts";
import { ConfigError } from "./config-error.ts";

/** Resolves once a TCP connection to the URL's host and port opens; rejects after `timeoutMs`. */
function tcpReachable(url: string, defaultPort: number, timeoutMs: number): Promise<void> {
  const { hostname, port } = new URL(url);
  // new URL keeps IPv6 literals in brackets; net.connect wants them bare.
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port: Number(port) || defaultPort, timeout: timeoutMs });
    socket.once("connect", () => {
      socket.destroy();
      resolve();
    });
    socket.once("timeout", () => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    });
    socket.once("error", (error) => {
      socket.destroy();
      reject(error);
    });
  });
}

/**
 * One connection, no retry. connect() completes Redis's handshake (HELLO and the ready check), so
 * a wrong password, a TLS mismatch or something else on that port fails here too.
 */
async function redisReachable(url: string, timeoutMs: number): Promise<void> {
  // Loaded here, not at the top: only a cluster's start gets this far (BENCHMARKS.md §47).
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  // The failure is reported by connect()'s rejection; without a listener ioredis prints it too.
  redis.on("error", () => {});
  try {
    await redis.connect();
  } finally {
    redis.disconnect();
  }
}

/**
 * At start-up, before anything else runs: tries each configured service once, all at the same
 * time, so a typo in a host or a stopped service is one clear error naming every variable at
 * fault instead of a process that starts and retries forever. PostgreSQL gets a TCP connect only
 * (the api holds no database driver); the store's own connection reports a wrong password.
 */
export async function checkReachable(config: ClusterConfig, timeoutMs = 3_000): Promise<void> {
  const checks: Array<[string, string, Promise<void>]> = [];
  if (config.databaseUrl) {
    const url = config.databaseUrl;
    checks.push(["DATABASE_URL", url, tcpReachable(url, 5432, timeoutMs)]);
  }
  if (config.redisUrl) {
    const url = config.redisUrl;
    checks.push(["REDIS_URL", url, redisReachable(url, timeoutMs)]);
  }
  const results = await Promise.allSettled(checks.map(([, , check]) => check));
  const problems = results.flatMap((result, i) => {
    if (result.status === "fulfilled") return [];
    const [name, url] = checks[i] as [string, string, Promise<void>];
    const why = result.reason instanceof Error ? result.reason.message : String(result.reason);
    return [`${name} is unreachable (${redactUrl(url)}): ${why}`];
  });
  if (problems.length > 0) throw new ConfigError(problems);
}
