// `pnpm start`: builds what is missing or out of date (the web app, the server bundle), then runs
// the bundled server (packages/api/dist/main.mjs) in the foreground with the caller's environment:
// plain JavaScript, no TypeScript loader at run time. `node scripts/start.mjs users …` (and
// `kite …`) runs a CLI's bundle the same way. Relative DATA_DIR / REPLAY_FILE are resolved against
// the directory pnpm was started from. The process-level tests start the server through this file.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { bundlePath, ensureBuilt, ROOT } from "./production-build.mjs";

const callerDir = process.env.INIT_CWD ?? process.cwd();
const CLIS = new Set(["users", "kite"]);
const [first, ...rest] = process.argv.slice(2);
const entry = CLIS.has(first) ? first : "main";
const args = entry === "main" ? process.argv.slice(2) : rest;

ensureBuilt({ web: entry === "main", entry });

process.env.DATA_DIR = resolve(callerDir, process.env.DATA_DIR || "data");
if (process.env.REPLAY_FILE) process.env.REPLAY_FILE = resolve(callerDir, process.env.REPLAY_FILE);

// Run in this process rather than a child: one Node process (and its ~40 MB) fewer, and signals
// reach the server's own handlers directly. The bundle reads its arguments from process.argv.
const bundle = bundlePath(entry);
process.chdir(ROOT);
process.argv = [process.argv[0], bundle, ...args];
await import(pathToFileURL(bundle).href);
