// `pnpm build` (after the web build): bundles the server and its CLIs into plain JavaScript in
// packages/api/dist, so production runs `node packages/api/dist/main.mjs` with no TypeScript
// loader (docs/operations.md, "Production start"). Tests keep running the TypeScript sources.
import { existsSync, realpathSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const api = join(root, "packages/api");
const outdir = join(api, "dist");

// Packages with native parts (or optional native add-ons) cannot be bundled: they stay
// `require`/`import` calls, resolved at run time.
const NATIVE = ["better-sqlite3", "pg-native", "bufferutil", "utf-8-validate"];

/** A specifier that reaches `file` from the bundle's folder, as ESM and `require` both accept. */
function fromOutdir(file) {
  const path = relative(outdir, file).split("\\").join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

/**
 * The file `specifier` names for code in `dir`, reached through the importer's node_modules link
 * (packages/db/node_modules/better-sqlite3/…) rather than pnpm's versioned store folder, so a
 * reinstall of the same package does not break a built bundle.
 */
function throughSymlink(specifier, dir) {
  const name = specifier.split("/")[0];
  const real = createRequire(join(dir, "_")).resolve(specifier);
  for (let at = dir; ; at = dirname(at)) {
    const link = join(at, "node_modules", name);
    if (existsSync(link)) return join(link, relative(realpathSync(link), real));
    if (dirname(at) === at) return real;
  }
}

/**
 * pnpm's strict layout puts better-sqlite3 in packages/db/node_modules only, out of reach of a
 * bundle in packages/api/dist. Each native package is resolved from the file that imports it, at
 * build time, and the bundle imports it by a path relative to itself: it keeps working wherever
 * the checkout (with its node_modules) is moved.
 */
const nativeFromImporter = {
  name: "native-from-importer",
  setup(b) {
    const filter = new RegExp(`^(${NATIVE.join("|")})(/.*)?$`);
    b.onResolve({ filter }, (args) => {
      try {
        return { path: fromOutdir(throughSymlink(args.path, args.resolveDir)), external: true };
      } catch {
        // Optional add-ons (pg-native, bufferutil) are absent: their importers catch the failure.
        return { path: args.path, external: true };
      }
    });
  },
};

/**
 * The sources find files next to themselves with `new URL("../drizzle", import.meta.url)` (the
 * migrations, the web build, package.json). In a bundle every module shares one import.meta.url,
 * so each workspace module gets its own again: its source file's URL, computed relative to the
 * bundle so the checkout can move.
 */
const sourceImportMetaUrl = {
  name: "source-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      const own = `new URL(${JSON.stringify(fromOutdir(args.path))}, import.meta.url).href`;
      return { contents: text.replaceAll("import.meta.url", own), loader: "ts" };
    });
  },
};

const result = await build({
  // Paths in the metafile are relative to the root, wherever the build is started from.
  absWorkingDir: root,
  // What each bundle holds and how each module is reached (a static import or a dynamic one):
  // packages/api/test/bundle.test.ts reads it to check what a single-process start evaluates.
  metafile: true,
  entryPoints: {
    main: join(api, "src/main.ts"),
    users: join(api, "src/cli/users.ts"),
    kite: join(api, "src/cli/kite.ts"),
    // The live stream's fan-out process (packages/api/src/stream/stream-fanout.ts).
    "stream-fanout": join(api, "src/stream/fanout-child.ts"),
  },
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  // No code splitting: a shared chunk in another folder would break the relative paths above.
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  // Keep every function's and class's own `name`: esbuild renames a class on a name clash
  // (abort-controller's AbortSignal became AbortSignal2), and node-fetch, under grammY, accepts a
  // signal only when its class is named "AbortSignal": without this every Telegram call from the
  // bundle failed as "network error" while the sources worked (docs/operations.md, "Production
  // start").
  keepNames: true,
  // No comments and no layout: esbuild keeps some comments, a few with an emoji, and one
  // character outside ASCII makes V8 hold a whole module's source as a two-byte string for the
  // life of the process (main.mjs: 9.4 MB of heap for a 4.8 MB file). Plain ASCII and 3.2 MB,
  // the server idles ~12 MB smaller and parses less at every start (BENCHMARKS.md §47); the
  // source maps still lead back to the TypeScript (docs/operations.md, "Production start").
  minifyWhitespace: true,
  // Bundled CommonJS packages (pino, pg) call `require`; ESM output has none of its own.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
  plugins: [nativeFromImporter, sourceImportMetaUrl],
  logLevel: "warning",
});

await writeFile(join(outdir, "metafile.json"), JSON.stringify(result.metafile));
console.log(`Server bundled into ${relative(root, outdir)}`);
