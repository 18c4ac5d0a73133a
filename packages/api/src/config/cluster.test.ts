import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { clusterEnvSchema } from "./cluster.ts";

/** The variables at fault, with their messages: what an operator reads. */
function problems(env: Record<string, string>): Record<string, string> {
  const parsed = clusterEnvSchema.safeParse(env);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
}

const CLUSTER = {
  DATABASE_URL: "postgres://sw:pw@db.internal/sw",
  REDIS_URL: "redis://cache:6379",
};

describe("cluster settings", () => {
  it("default to the embedded single process that may lead", () => {
    expect(clusterEnvSchema.parse({})).toEqual({
      databaseUrl: undefined,
      redisUrl: undefined,
      role: "auto",
      instanceId: `${hostname()}-${process.pid}`,
    });
  });

  it("treat an empty value as unset", () => {
    expect(clusterEnvSchema.parse({ DATABASE_URL: " ", REDIS_URL: "" }).databaseUrl).toBe(
      undefined,
    );
  });

  it("take PostgreSQL and Redis URLs, a role and an id", () => {
    expect(
      clusterEnvSchema.parse({
        DATABASE_URL: "postgresql://sw@10.0.0.5:5433/sw",
        REDIS_URL: "rediss://:pw@cache.example:6380/1",
        INSTANCE_ROLE: "edge",
        INSTANCE_ID: "web-2",
      }),
    ).toEqual({
      databaseUrl: "postgresql://sw@10.0.0.5:5433/sw",
      redisUrl: "rediss://:pw@cache.example:6380/1",
      role: "edge",
      instanceId: "web-2",
    });
  });

  it.each([
    ["DATABASE_URL", "mysql://db/sw", "postgres:// or postgresql://"],
    ["DATABASE_URL", "db.internal:5432", "postgres:// or postgresql://"],
    ["DATABASE_URL", "postgres://", "postgres:// or postgresql://"],
    ["REDIS_URL", "http://cache:6379", "redis:// or rediss://"],
    ["INSTANCE_ROLE", "leader", "auto, edge"],
    ["INSTANCE_ID", "has space", "letters, digits"],
  ])("name %s when it is %j", (name, value, expected) => {
    const found = problems({ ...CLUSTER, [name]: value });
    expect(Object.keys(found)).toEqual([name]);
    expect(found[name]).toContain(expected);
  });

  it("report every wrong variable at once", () => {
    expect(
      Object.keys(problems({ DATABASE_URL: "x", REDIS_URL: "y", INSTANCE_ROLE: "z" })),
    ).toEqual(["DATABASE_URL", "REDIS_URL", "INSTANCE_ROLE"]);
  });

  it("refuse a bus without the shared database", () => {
    expect(problems({ REDIS_URL: CLUSTER.REDIS_URL })).toEqual({
      REDIS_URL: expect.stringContaining("needs DATABASE_URL"),
    });
  });

  it("allow one process on PostgreSQL without a bus", () => {
    expect(problems({ DATABASE_URL: CLUSTER.DATABASE_URL })).toEqual({});
  });

  it("refuse an edge that has no leader to serve from", () => {
    expect(problems({ INSTANCE_ROLE: "edge", DATABASE_URL: CLUSTER.DATABASE_URL })).toEqual({
      INSTANCE_ROLE: expect.stringContaining("edge needs DATABASE_URL and REDIS_URL"),
    });
    expect(problems({ INSTANCE_ROLE: "edge", ...CLUSTER })).toEqual({});
  });
});
