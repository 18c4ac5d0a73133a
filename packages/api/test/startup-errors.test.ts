import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runMain } from "./server.ts";

const dir = mkdtempSync(join(tmpdir(), "spreadwatch-start-"));

async function failedStart(env: Record<string, string>) {
  const main = runMain({ DATA_DIR: dir, ...env });
  const code = await main.exited;
  return { code, stderr: main.stderr().trim(), stdout: main.stdout() };
}

describe("a bad configuration stops the start with one clear line", () => {
  it.each([
    [
      { PORT: "abc" },
      'spreadwatch: Invalid PORT: must be a whole number from 0 to 65535 (got "abc")',
    ],
    [
      { FEED: "bloomberg" },
      'spreadwatch: Invalid FEED: must be one of: simulator, replay, composite (got "bloomberg")',
    ],
    [{ FEED: "replay" }, "spreadwatch: Invalid REPLAY_FILE: is required when FEED=replay"],
    [
      { DUTY_GC: "6" },
      'spreadwatch: Invalid DUTY_GC: must be a fraction from 0 to 1 (0.06 = 6 %) (got "6")',
    ],
    [
      { SESSION_SECRET: "too-short-secret" },
      "spreadwatch: Invalid SESSION_SECRET: must be at least 32 characters",
    ],
  ])("%j", async (env, line) => {
    const { code, stderr, stdout } = await failedStart(env);
    expect(code).toBe(1);
    expect(stderr).toBe(line);
    expect(stdout).not.toMatch(/listening/);
  });
});

describe("every configuration problem is reported at once, one line each", () => {
  it("names each bad variable, the cluster ones too, and no URL's password", async () => {
    const { code, stderr } = await failedStart({
      PORT: "abc",
      FEED: "bloomberg",
      DATABASE_URL: "mysql://sw:hunter2@db.internal/sw",
      INSTANCE_ROLE: "boss",
    });
    expect(code).toBe(1);
    expect(stderr.split("\n").sort()).toEqual(
      [
        'spreadwatch: Invalid PORT: must be a whole number from 0 to 65535 (got "abc")',
        'spreadwatch: Invalid FEED: must be one of: simulator, replay, composite (got "bloomberg")',
        'spreadwatch: Invalid DATABASE_URL: must be a URL starting with postgres:// or postgresql:// (got "mysql://sw:***@db.internal/sw")',
        'spreadwatch: Invalid INSTANCE_ROLE: must be one of: auto, edge (got "boss")',
      ].sort(),
    );
  });

  it("a stopped PostgreSQL and Redis are one line each, before anything starts", async () => {
    // Port 9 (discard) on loopback: nothing listens there on a test machine.
    const { code, stderr, stdout } = await failedStart({
      DATABASE_URL: "postgres://sw:hunter2@127.0.0.1:9/sw",
      REDIS_URL: "redis://127.0.0.1:9",
    });
    expect(code).toBe(1);
    const lines = stderr.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^spreadwatch: DATABASE_URL is unreachable \(postgres:\/\/sw:\*\*\*@127\.0\.0\.1:9\/sw\)/,
    );
    expect(lines[1]).toMatch(/^spreadwatch: REDIS_URL is unreachable/);
    expect(stdout).not.toMatch(/listening/);
  });
});

describe("a missing or malformed replay file stops the start naming the file and line", () => {
  function replay(name: string, text: string) {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  }

  it.each([
    ["missing", undefined, "file not found"],
    [
      "bad-number.csv",
      "ts,source,key,bid,ask,price\n2026-01-01T00:00:00Z,fx,USDINR,,,84\n2026-01-01T00:00:01Z,cme,GC,abc,2000,\n",
      'line 3: bid "abc" is not a number',
    ],
    [
      "bad-key.csv",
      "ts,source,key,bid,ask,price\n1767225600000,mcx,gold x,1,2,\n",
      'line 2: key "gold x" is not an instrument key such as GOLD, GOLD@next or ZINC',
    ],
    [
      "wrong-group.csv",
      "ts,source,key,bid,ask,price\n1767225600000,mcx,GC,1,2,\n",
      'line 2: key "GC" is a cme key, not mcx',
    ],
    [
      "bad-ts.csv",
      "ts,source,key,bid,ask,price\nyesterday,fx,USDINR,,,84\n",
      'line 2: ts "yesterday" is neither ISO-8601 nor epoch milliseconds',
    ],
    [
      "backwards.csv",
      "ts,source,key,bid,ask,price\n1767225600000,fx,USDINR,,,84\n1767225599000,fx,USDINR,,,85\n",
      "line 3: rows must be in time order",
    ],
    [
      "no-price.csv",
      "ts,source,key,bid,ask,price\n1767225600000,spot,XAUUSD,,,\n",
      "line 2: a spot row needs price",
    ],
    [
      "bad-header.csv",
      "time,source,key,bid,ask\n1767225600000,fx,USDINR,,\n",
      "line 1: header lacks column(s) ts, price",
    ],
    ["ragged.csv", "ts,source,key,bid,ask,price\n1767225600000,fx,USDINR,,,84,9\n", "line 2:"],
  ])("%s", async (name, text, reason) => {
    const file = text === undefined ? join(dir, "does-not-exist.csv") : replay(name, text);
    const { code, stderr } = await failedStart({ FEED: "replay", REPLAY_FILE: file });
    expect(code).toBe(1);
    expect(stderr.split("\n")).toHaveLength(1);
    expect(stderr).toContain(`spreadwatch: Replay file ${file}: `);
    expect(stderr).toContain(reason);
  });
});
