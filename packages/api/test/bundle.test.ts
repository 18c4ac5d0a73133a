// The production bundles (packages/api/dist, built by this project's global set-up) as a start
// pays for them. V8 keeps every module's source in memory for as long as the process runs, and
// one character outside ASCII anywhere in a file (an emoji in a dependency's comment that
// esbuild kept) makes it hold the whole file as a two-byte string: main.mjs's 4.8 MB took 9.4 MB
// of heap, and the server idled ~12 MB larger (BENCHMARKS.md §47). The build drops comments
// and whitespace (scripts/build-server.mjs, `minifyWhitespace`) and esbuild escapes non-ASCII in
// strings, so each bundle is plain ASCII: one byte a character. And what a module imports at
// its top is evaluated at start: the cluster's drivers (ioredis, pg) are reached only through
// dynamic imports, so an embedded server (SQLite, one process) never evaluates them.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const bundles = readdirSync(DIST).filter((name) => name.endsWith(".mjs"));

/** esbuild's metafile of the build (scripts/build-server.mjs): each module and what it imports. */
interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
}
const metafile = JSON.parse(readFileSync(join(DIST, "metafile.json"), "utf8")) as Metafile;
const ENTRY = "packages/api/src/main.ts";
/** The cluster's drivers, as esbuild names their files. */
const CLUSTER_ONLY = /\/node_modules\/(ioredis|pg)\//;

/** The modules reached from the entry through imports of the kinds `follow` accepts. */
function reached(follow: (kind: string) => boolean): Set<string> {
  const seen = new Set([ENTRY]);
  const queue = [ENTRY];
  for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
    for (const edge of metafile.inputs[path]?.imports ?? []) {
      if (edge.external || seen.has(edge.path) || !follow(edge.kind)) continue;
      seen.add(edge.path);
      queue.push(edge.path);
    }
  }
  return seen;
}

/** Where `text` first leaves ASCII, with a little context; undefined when it never does. */
function firstNonAscii(text: Buffer): string | undefined {
  const at = text.findIndex((byte) => byte > 0x7f);
  if (at === -1) return undefined;
  return `byte ${at}: …${text.subarray(Math.max(0, at - 40), at + 20).toString("utf8")}…`;
}

describe("the production bundles", () => {
  it("are the server, its CLIs and the stream fan-out process", () => {
    expect(bundles.sort()).toEqual(["kite.mjs", "main.mjs", "stream-fanout.mjs", "users.mjs"]);
  });

  it.each(bundles)("%s is plain ASCII, so V8 keeps its source one byte a character", (name) => {
    expect(firstNonAscii(readFileSync(join(DIST, name)))).toBeUndefined();
  });

  it("evaluate ioredis and pg only when a cluster imports them", () => {
    const all = [...reached(() => true)].filter((path) => CLUSTER_ONLY.test(path));
    const atStart = [...reached((kind) => kind !== "dynamic-import")];
    // Both are in the server's bundle (a cluster needs them)...
    expect(all.some((path) => path.includes("/ioredis/"))).toBe(true);
    expect(all.some((path) => path.includes("/pg/"))).toBe(true);
    // ...and nothing a start evaluates imports them at its top.
    expect(atStart.filter((path) => CLUSTER_ONLY.test(path))).toEqual([]);
  });
});
