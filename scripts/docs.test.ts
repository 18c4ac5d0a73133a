// The documents a newcomer reads first stay true to the repository: every relative link in
// README.md and docs/*.md reaches a file (and, with #anchor, a heading of it), every `pnpm …`
// command they name runs a script that exists, and the README's test command is the one CI runs.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** README.md and the topic documents beside it in docs/ (not docs/issues, not docs/pending). */
function documents(): string[] {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(ROOT, "docs", name));
  return [join(ROOT, "README.md"), ...docs];
}

const rel = (file: string) => relative(ROOT, file);

/** The text outside fenced code blocks, with inline code spans blanked (links there are literal). */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "``");
}

/** Every piece of code: fenced blocks and inline spans (double-backtick spans too). */
function codeOf(markdown: string): string[] {
  const fenced = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
  const outside = markdown.replace(/^```[\s\S]*?^```/gm, "");
  const inline = [...outside.matchAll(/(`+)([^`][\s\S]*?)\1/g)].map((m) =>
    (m[2] ?? "").replace(/\n/g, " "),
  );
  return [...fenced, ...inline];
}

/** Relative link targets: markdown links and images, and HTML src/href attributes. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const markdownLinks = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
  const htmlLinks = [...text.matchAll(/\b(?:src|href)="([^"]+)"/g)];
  return [...markdownLinks, ...htmlLinks]
    .map((m) => m[1] ?? "")
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/**
 * The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces to
 * hyphens, a repeated slug numbered -1, -2 ….
 */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, "");
  for (const [, heading] of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = (heading ?? "")
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<[^>]+>/g, "")
      .replace(/[`*_]/g, "");
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** What is wrong with one link target from `file`, or null when it resolves. */
function brokenLink(file: string, target: string): string | null {
  const [pathPart = "", anchor] = target.split("#", 2);
  const path = decodeURIComponent(pathPart);
  const resolved = path === "" ? file : resolve(dirname(file), path);
  if (!existsSync(resolved)) return `${target}: no file ${rel(resolved)}`;
  if (anchor === undefined || anchor === "") return null;
  if (statSync(resolved).isDirectory() || !resolved.endsWith(".md")) {
    return `${target}: an anchor into ${rel(resolved)}, which is not a markdown file`;
  }
  const anchors = anchorsOf(readFileSync(resolved, "utf8"));
  return anchors.has(decodeURIComponent(anchor).toLowerCase())
    ? null
    : `${target}: ${rel(resolved)} has no heading #${anchor}`;
}

interface PackageJson {
  name?: string;
  scripts?: Record<string, string>;
}

function workspacePackages(): PackageJson[] {
  const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;
  const packages = readdirSync(join(ROOT, "packages"))
    .map((name) => join(ROOT, "packages", name, "package.json"))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, "utf8")) as PackageJson);
  return [root, ...packages];
}

/** pnpm's own commands, which name no script (`pnpm exec …`, `pnpm install`). */
const PNPM_COMMANDS = new Set([
  "add",
  "dlx",
  "exec",
  "i",
  "install",
  "list",
  "ls",
  "outdated",
  "pack",
  "remove",
  "update",
  "why",
]);

/** What is wrong with one `pnpm …` command line, or null when its script exists. */
function missingScript(line: string, packages: PackageJson[]): string | null {
  const words = line.trim().split(/\s+/);
  let scope: "root" | "recursive" | string = "root";
  let index = 1;
  while (index < words.length && words[index]?.startsWith("-")) {
    const flag = words[index];
    if (flag === "--filter" || flag === "-F") {
      scope = words[index + 1] ?? "";
      index += 2;
    } else {
      if (flag === "-r" || flag === "--recursive") scope = "recursive";
      index += 1;
    }
  }
  let script = words[index];
  if (script === undefined) return `${line}: names no command`;
  if (script === "run") script = words[index + 1] ?? "";
  if (PNPM_COMMANDS.has(script)) return null;
  const has = (pkg: PackageJson | undefined) => pkg?.scripts?.[script] !== undefined;
  if (scope === "root") return has(packages[0]) ? null : `${line}: no root script "${script}"`;
  if (scope === "recursive") {
    return packages.slice(1).some(has) ? null : `${line}: no package has a script "${script}"`;
  }
  const pkg = packages.find((candidate) => candidate.name === scope);
  if (pkg === undefined) return `${line}: no workspace package ${scope}`;
  return has(pkg) ? null : `${line}: ${scope} has no script "${script}"`;
}

/** Every `pnpm …` command in a document's code, up to the end of its line or a `;`, `&&`, `|`. */
function pnpmCommands(markdown: string): string[] {
  return codeOf(markdown).flatMap((code) =>
    [...code.matchAll(/(?:^|[\s(=&|;])(pnpm(?: +[^\s#;&|`)]+)+)/gm)].map((m) => m[1] ?? ""),
  );
}

describe.each(documents().map((file) => [rel(file), file]))("%s", (_name, file) => {
  const markdown = readFileSync(file, "utf8");

  test("every relative link reaches a file and its #anchor", () => {
    const broken = linkTargets(markdown)
      .map((target) => brokenLink(file, target))
      .filter((problem) => problem !== null);
    expect(broken).toEqual([]);
  });

  test("every `pnpm …` command names a script that exists", () => {
    const packages = workspacePackages();
    const missing = pnpmCommands(markdown)
      .map((line) => missingScript(line, packages))
      .filter((problem) => problem !== null);
    expect(missing).toEqual([]);
  });
});

test("the README's two commands come first, and its test command is the one CI runs", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const firstBlock = /^```sh\n([\s\S]*?)^```/m.exec(readme)?.[1] ?? "";
  const commands = firstBlock
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.replace(/\s+#.*$/, ""));
  expect(commands).toEqual([
    "npm i -g pnpm@10 && pnpm install && pnpm start",
    "npm i -g pnpm@10 && pnpm install && pnpm test",
  ]);
  const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");
  expect(ci).toMatch(/^exec pnpm test\b/m);
});

describe("the checker itself", () => {
  test("finds a broken file, a broken anchor and a missing script", () => {
    const readme = join(ROOT, "README.md");
    expect(brokenLink(readme, "docs/no-such.md")).toMatch(/no file/);
    expect(brokenLink(readme, "docs/architecture.md#no-such-heading")).toMatch(/no heading/);
    expect(brokenLink(readme, "docs/architecture.md#layout")).toBeNull();
    expect(missingScript("pnpm no-such-script", workspacePackages())).toMatch(/no root script/);
    expect(
      missingScript("pnpm --filter @spreadwatch/db generate --name x", workspacePackages()),
    ).toBeNull();
  });

  test("reads GitHub's anchors, numbered when repeated", () => {
    const anchors = anchorsOf("# Net / lot (₹) and z\n## Positions API (paper)\n## A\n## A\n");
    expect([...anchors]).toEqual(["net--lot--and-z", "positions-api-paper", "a", "a-1"]);
  });
});
