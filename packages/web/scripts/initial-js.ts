import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

// What a first visit downloads before the first screen: the module script dist/index.html loads,
// the chunks it preloads, and every chunk those import statically. Lazy chunks (import()) are
// not followed. Sizes as BENCHMARKS.md §3 measures them: node:zlib's gzip at its default level.

export interface InitialChunk {
  file: string;
  raw: number;
  gzip: number;
}

const SCRIPT = /<script[^>]*type="module"[^>]*src="\/([^"]+\.js)"/g;
const PRELOAD = /<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+\.js)"/g;
// A static import in the minified output: `import{a as b}from"./x.js"` or `import"./x.js"`;
// `import("./x.js")` (a lazy chunk) has a parenthesis and does not match.
const STATIC_IMPORT = /\bimport\s*(?:[\w$*{},\s]+?\s*from\s*)?["']\.\/([^"']+\.js)["']/g;

/** The initial chunks of the build in `dist`, paths relative to it ("assets/index-….js"). */
export function initialChunks(dist: string): InitialChunk[] {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const pending = [...html.matchAll(SCRIPT), ...html.matchAll(PRELOAD)].map((m) => m[1] as string);
  if (pending.length === 0) throw new Error(`${dist}/index.html loads no module script`);
  const seen = new Map<string, InitialChunk>();
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    const code = readFileSync(join(dist, file));
    seen.set(file, { file, raw: code.length, gzip: gzipSync(code).length });
    const dir = file.slice(0, file.lastIndexOf("/") + 1);
    for (const m of code.toString("utf8").matchAll(STATIC_IMPORT)) pending.push(dir + m[1]);
  }
  return [...seen.values()].sort((a, b) => b.gzip - a.gzip);
}

/** The initial chunks' code, joined, for what it must not contain. */
export function initialCode(dist: string): string {
  return initialChunks(dist)
    .map((chunk) => readFileSync(join(dist, chunk.file), "utf8"))
    .join("\n");
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

// `pnpm exec tsx packages/web/scripts/initial-js.ts [dist]` prints the table for BENCHMARKS.md §3.
if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = process.argv[2] ?? join(import.meta.dirname, "../dist");
  const chunks = initialChunks(dist);
  for (const c of chunks)
    console.log(`${c.file.padEnd(44)} ${kB(c.raw).padStart(9)} ${kB(c.gzip).padStart(9)}`);
  const sum = (key: "raw" | "gzip") => chunks.reduce((total, c) => total + c[key], 0);
  console.log(
    `${"initial JS".padEnd(44)} ${kB(sum("raw")).padStart(9)} ${kB(sum("gzip")).padStart(9)}`,
  );
}
