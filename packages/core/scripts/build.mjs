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

// jsep, the formula parser (src/formula.ts), is the one package core's code imports. The packed
// core embeds it, with its licence, so the tarball still installs with no dependencies and works
// offline: the workspace resolves `jsep` from node_modules, the tarball from dist/vendor.
const require = createRequire(import.meta.url);
// jsep's exports leave out package.json: its root is three levels above the CommonJS entry.
const jsepRoot = join(dirname(require.resolve("jsep")), "../..");
const { build } = await import(require.resolve("esbuild", { paths: [join(core, "../..")] }));
await build({
  entryPoints: [join(jsepRoot, "dist/jsep.js")],
  outfile: join(dist, "vendor/jsep.js"),
  bundle: true,
  format: "esm",
  legalComments: "inline",
  logLevel: "warning",
});
writeFileSync(join(dist, "vendor/jsep.LICENSE"), readFileSync(join(jsepRoot, "LICENSE")));
for (const name of readdirSync(dist)) {
  if (!name.endsWith(".js")) continue;
  const file = join(dist, name);
  const text = readFileSync(file, "utf8");
  const fixed = text.replace(/from\s*(["'])jsep\1/g, 'from "./vendor/jsep.js"');
  if (fixed !== text) writeFileSync(file, fixed);
}
