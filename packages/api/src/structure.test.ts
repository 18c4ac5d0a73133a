import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// docs/architecture.md ("Layout"): imports inside api/src point one way. A room is a top-level
// folder of src (or a file at its root); no room may import a room that imports it back,
// however long the way round.
const SRC = dirname(fileURLToPath(import.meta.url));
const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?["'](\.[^"']+)["']/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const roomOf = (file: string) => relative(SRC, file).split(sep)[0] as string;

/** Room → the rooms it imports, each with one import that shows it. */
function roomImports(): Map<string, Map<string, string>> {
  const rooms = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const from = roomOf(file);
    const targets = rooms.get(from) ?? new Map<string, string>();
    rooms.set(from, targets);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = normalize(join(dirname(file), spec as string));
      if (relative(SRC, target).startsWith("..")) continue;
      const to = roomOf(target);
      if (to !== from && !targets.has(to))
        targets.set(to, `${relative(SRC, file)} → ${relative(SRC, target)}`);
    }
  }
  return rooms;
}

/** Every import whose target room reaches back to the importing room. */
function importsThatComeBack(rooms: Map<string, Map<string, string>>): string[] {
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const room = stack.pop() as string;
      if (room === to) return true;
      if (seen.has(room)) continue;
      seen.add(room);
      stack.push(...(rooms.get(room)?.keys() ?? []));
    }
    return false;
  };
  const found: string[] = [];
  for (const [from, targets] of rooms)
    for (const [to, example] of targets) if (reaches(to, from)) found.push(example);
  return found.sort();
}

describe("packages/api/src's structure", () => {
  it("has no import that runs back up: the rooms' imports make no circle", () => {
    const rooms = roomImports();
    expect(rooms.size).toBeGreaterThan(20);
    expect(importsThatComeBack(rooms)).toEqual([]);
  });
});
