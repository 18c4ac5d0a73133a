// `pnpm --filter @spreadwatch/core build` (and `npm pack`, through prepack): ESM JavaScript and
// .d.ts types of src in dist/, for use outside this repository (README.md, "Outside this
// repository"). The workspace never needs it: it imports src/index.ts directly.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const core = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(core, "dist");

// A file removed from src must not linger in the tarball.
rmSync(dist, { recursive: true, force: true });

const tsc = join(
  dirname(createRequire(import.meta.url).resolve("typescript/package.json")),
  "bin/tsc",
);
const run = spawnSync(process.execPath, [tsc, "-p", join(core, "tsconfig.build.json")], {
  stdio: "inherit",
});
if (run.status !== 0) process.exit(run.status ?? 1);

// tsc rewrites `./x.ts` to `./x.js` in the JavaScript but leaves the declarations' imports as
// written. TypeScript 5 reads those, but older compilers and some editors do not, and no
// `x.ts` ships: point them at the `.js` whose `.d.ts` sits beside it.
const relativeTs = /((?:from|import)\s*\(?\s*)(["'])(\.{1,2}\/[^"']+)\.ts\2/g;
for (const name of readdirSync(dist)) {
  if (!name.endsWith(".d.ts")) continue;
  const file = join(dist, name);
  const text = readFileSync(file, "utf8");
  const fixed = text.replace(relativeTs, "$1$2$3.js$2");
  if (fixed !== text) writeFileSync(file, fixed);
}
