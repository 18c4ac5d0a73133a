import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, RedisServer } from "../../test/fakes/redis-server.ts";
import { ConfigError } from "./index.ts";
import { checkReachable } from "./reachable.ts";

const redis = new RedisServer();
// Stands in for PostgreSQL: the check only opens a TCP connection to it.
const listener: Server = createServer((socket) => socket.destroy());
let databaseUrl = "";
let closedPort = 0;

beforeAll(async () => {
  await redis.start();
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const address = listener.address();
  if (!address || typeof address === "string") throw new Error("no port");
  databaseUrl = `postgres://sw:pw@127.0.0.1:${address.port}/sw`;
  closedPort = await freePort();
});
afterAll(async () => {
  await redis.dispose();
  await new Promise((resolve) => listener.close(resolve));
});

const config = (databaseUrl?: string, redisUrl?: string) => ({
  databaseUrl,
  redisUrl,
  role: "auto" as const,
  instanceId: "test",
});

describe("checkReachable", () => {
  it("passes when every configured service answers", async () => {
    await expect(checkReachable(config(databaseUrl, redis.url))).resolves.toBeUndefined();
  });

  it("passes with nothing configured (the embedded mode)", async () => {
    await expect(checkReachable(config())).resolves.toBeUndefined();
  });

  it("names DATABASE_URL when nothing listens there, without its password", async () => {
    const error = await checkReachable(
      config(`postgres://sw:secret@127.0.0.1:${closedPort}/sw`, redis.url),
      1_000,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^DATABASE_URL is unreachable/);
    expect((error as Error).message).not.toContain("secret");
    expect((error as Error).message).not.toContain("REDIS_URL");
  });

  it("names REDIS_URL when nothing listens there", async () => {
    const error = await checkReachable(
      config(databaseUrl, `redis://127.0.0.1:${closedPort}`),
      1_000,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^REDIS_URL is unreachable/);
  });

  it("names REDIS_URL when the server answers but not as Redis would", async () => {
    // Our TCP listener hangs up at once: reachable, but no Redis behind it.
    const error = await checkReachable(
      config(undefined, databaseUrl.replace(/^postgres/, "redis")),
      1_000,
    ).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^REDIS_URL is unreachable/);
  });

  it("names both when both are down", async () => {
    const url = (scheme: string) => `${scheme}://127.0.0.1:${closedPort}`;
    const error = await checkReachable(config(url("postgres"), url("redis")), 1_000).catch(
      (e: unknown) => e,
    );
    // One problem per line: the start prints each on its own line.
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^DATABASE_URL is unreachable/);
    expect(problems[1]).toMatch(/^REDIS_URL is unreachable/);
  });
});
