// The packed package, used as someone outside this repository uses it (README.md, "Outside this
// repository"): `npm pack`, `npm install` of the tarball into an empty folder, then plain
// `node`, `tsc` and a browser bundle. It packs a copy of packages/core laid out as in the
// repository, because npm swaps package.json in place while packing and the other test files,
// running at the same time, resolve `@spreadwatch/core` through the real one.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format } from "node:util";
import { runInNewContext } from "node:vm";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const core = join(dirname(fileURLToPath(import.meta.url)), "..");
const root = join(core, "../..");
const tsc = join(root, "node_modules/typescript/bin/tsc");

interface Example {
  code: string;
  output: string;
}

/**
 * The README's examples: each ```js block importing @spreadwatch/core, with the plain ``` block
 * right after it, which is what it prints. An example without one is an error, so none goes
 * unchecked.
 */
function readmeExamples(markdown: string): Example[] {
  const blocks = [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1] ?? "",
    text: m[2] ?? "",
    end: (m.index ?? 0) + m[0].length,
    start: m.index ?? 0,
  }));
  const examples: Example[] = [];
  blocks.forEach((block, i) => {
    if (block.lang !== "js" || !block.text.includes('from "@spreadwatch/core"')) return;
    const next = blocks[i + 1];
    if (next?.lang !== "" || markdown.slice(block.end, next.start).trim() !== "") {
      throw new Error(`README example without its output block:\n${block.text}`);
    }
    examples.push({ code: block.text, output: next.text });
  });
  return examples;
}

/** The environment of someone's shell: none of the npm_* settings pnpm passes to this run. */
function plainEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== "NODE_OPTIONS") env[key] = value;
  }
  return env;
}

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, env: plainEnv(), encoding: "utf8" });
  if (result.error) throw result.error;
  return result;
}

function ok(command: string, args: string[], cwd: string): string {
  const result = run(command, args, cwd);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

const examples = readmeExamples(readFileSync(join(core, "README.md"), "utf8"));

let tmp: string;
let staged: string;
let app: string;
let packed: { filename: string; files: { path: string }[] };

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "spreadwatch-core-pack-"));
  // The repository's layout in miniature: packages/core, the tsconfig it extends, and the root
  // node_modules (tsc) reached by walking up, as in the checkout.
  staged = join(tmp, "repo/packages/core");
  cpSync(core, staged, {
    recursive: true,
    filter: (path) => !["node_modules", "dist", "package.json.workspace"].includes(basename(path)),
  });
  cpSync(join(root, "tsconfig.base.json"), join(tmp, "repo/tsconfig.base.json"));
  symlinkSync(join(root, "node_modules"), join(tmp, "repo/node_modules"), "dir");
  // core's own dependencies (jsep, which the build embeds) live beside it, as pnpm installs them.
  symlinkSync(join(core, "node_modules"), join(staged, "node_modules"), "dir");

  // As if an earlier pack had died between prepack and postpack: the packed manifest in place,
  // the workspace one beside it. This pack must start from the workspace one and put it back.
  ok(process.execPath, ["scripts/pack-manifest.mjs", "apply"], staged);

  const tarballs = join(tmp, "tarballs");
  mkdirSync(tarballs);
  const json = ok("npm", ["pack", "--json", "--pack-destination", tarballs], staged);
  [packed] = JSON.parse(json);

  app = join(tmp, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), '{ "private": true }\n');
  ok(
    "npm",
    ["install", "--offline", "--no-audit", "--no-fund", join(tarballs, packed.filename)],
    app,
  );
}, 180_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// Child processes on a shared machine: generous limits, nothing here measures speed.
describe("the packed @spreadwatch/core", { timeout: 120_000 }, () => {
  it("holds dist with a .d.ts per module and the README, but no sources or tests", () => {
    const paths = packed.files.map((f) => f.path).sort();
    expect(paths).toContain("package.json");
    expect(paths).toContain("README.md");
    expect(paths).toContain("dist/index.js");
    expect(paths).toContain("dist/index.d.ts");
    expect(paths.filter((p) => !p.startsWith("dist/"))).toEqual(["README.md", "package.json"]);
    expect(paths.filter((p) => /\.test\./.test(p))).toEqual([]);
    const modules = readdirSync(join(core, "src")).filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".test.ts"),
    );
    const expected = modules.flatMap((f) => [
      `dist/${f.replace(/\.ts$/, ".js")}`,
      `dist/${f.replace(/\.ts$/, ".d.ts")}`,
    ]);
    // The formula parser, embedded with its licence (scripts/build.mjs).
    expected.push("dist/vendor/jsep.js", "dist/vendor/jsep.LICENSE");
    expect(paths.filter((p) => p.startsWith("dist/"))).toEqual(expected.sort());
  });

  it("installs as a package with no dependencies whose entry points are dist", () => {
    const installed = join(app, "node_modules/@spreadwatch/core");
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    expect(manifest.exports).toEqual({
      ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
    });
    expect(manifest.types).toBe("./dist/index.d.ts");
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    // Only the two that let a later pack recover from one that died halfway; an install runs
    // neither.
    expect(Object.keys(manifest.scripts)).toEqual(["prepack", "postpack"]);
    // Declarations point at files that ship: `./x.js` (next to its x.d.ts), never `./x.ts`.
    for (const name of readdirSync(join(installed, "dist")).filter((f) => f.endsWith(".d.ts"))) {
      const text = readFileSync(join(installed, "dist", name), "utf8");
      expect(text, name).not.toMatch(/["']\.{1,2}\/[^"']+\.ts["']/);
    }
  });

  it("leaves the workspace package.json as it was, also after a pack that died halfway", () => {
    expect(readFileSync(join(staged, "package.json"), "utf8")).toBe(
      readFileSync(join(core, "package.json"), "utf8"),
    );
    expect(existsSync(join(staged, "package.json.workspace"))).toBe(false);
  });

  it("has README examples to run", () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
  });

  it("runs every README example with plain node, printing the block after it", () => {
    for (const [i, { code }] of examples.entries())
      writeFileSync(join(app, `example-${i}.mjs`), code);
    const outputs = examples.map((_, i) => {
      const result = run(process.execPath, [`example-${i}.mjs`], app);
      return { status: result.status, stderr: result.stderr, stdout: result.stdout };
    });
    expect(outputs).toEqual(
      examples.map(({ output }) => ({ status: 0, stderr: "", stdout: output })),
    );
  });

  it("gives TypeScript its types: the examples check, a misuse does not", () => {
    const compilerOptions = {
      module: "NodeNext",
      moduleResolution: "NodeNext",
      target: "ES2023",
      lib: ["ES2023", "DOM"],
      types: [],
      strict: true,
      noEmit: true,
      // The shipped declarations are checked too.
      skipLibCheck: false,
    };
    const files = examples.map((_, i) => `example-${i}.ts`);
    for (const [i, { code }] of examples.entries())
      writeFileSync(join(app, `example-${i}.ts`), code);
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
    const good = run(process.execPath, [tsc, "-p", "."], app);
    expect(good.stdout + good.stderr).toBe("");
    expect(good.status).toBe(0);

    writeFileSync(
      join(app, "misuse.ts"),
      'import { formatSigned, perLot } from "@spreadwatch/core";\n' +
        'formatSigned("558.38", 2);\n' +
        'perLot("GC_BUY", { spread: 1 }, 84);\n',
    );
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({ compilerOptions, files: ["misuse.ts"] }),
    );
    const bad = run(process.execPath, [tsc, "-p", "."], app);
    expect(bad.status).not.toBe(0);
    const errors = bad.stdout.trim().split("\n");
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^misuse\.ts\(2,14\): error TS2345: .* 'string' .* 'number'/);
    expect(errors[1]).toMatch(/^misuse\.ts\(3,18\): error TS2741: Property 'mcx' is missing/);
  });

  it("bundles for a browser and runs there without Node's globals", async () => {
    for (const [i, { code, output }] of examples.entries()) {
      const result = await build({
        stdin: { contents: code, resolveDir: app, sourcefile: `example-${i}.mjs` },
        bundle: true,
        platform: "browser",
        format: "iife",
        write: false,
        metafile: true,
        absWorkingDir: app,
        logLevel: "silent",
      });
      const inputs = Object.keys(result.metafile.inputs).filter((p) => p !== `example-${i}.mjs`);
      expect(inputs.length).toBeGreaterThan(0);
      for (const input of inputs)
        expect(input).toMatch(/^node_modules\/@spreadwatch\/core\/dist\//);
      const lines: string[] = [];
      // A fresh realm with only console: no process, Buffer, require or module.
      runInNewContext(result.outputFiles[0]?.text ?? "", {
        console: { log: (...args: unknown[]) => lines.push(format(...args)) },
      });
      expect(lines.map((line) => `${line}\n`).join("")).toBe(output);
    }
  });
});

describe("@spreadwatch/core in this workspace", { timeout: 60_000 }, () => {
  it("resolves to the TypeScript sources, so tests and dev need no build", () => {
    const resolved = ok(
      process.execPath,
      ["--input-type=module", "-e", 'console.log(import.meta.resolve("@spreadwatch/core"))'],
      join(root, "packages/api"),
    );
    expect(resolved.trim()).toBe(pathToFileURL(join(core, "src/index.ts")).href);
  });
});
