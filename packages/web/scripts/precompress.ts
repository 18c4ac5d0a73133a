import { readdir, readFile, writeFile } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text the browser downloads on every visit; images and sounds are compressed already. */
const TEXT = new Set([".html", ".js", ".css", ".svg", ".webmanifest"]);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * Writes `name.br` and `name.gz` beside every text file of the build, at the strongest settings:
 * it happens once per build, so the server only picks a file (docs/operations.md, "Production
 * start") and never compresses per request. A variant no smaller than the original is not written,
 * and the server then sends the original.
 */
export async function precompressDir(dir: string): Promise<string[]> {
  const written: string[] = [];
  for (const file of await filesUnder(dir)) {
    if (!TEXT.has(extname(file))) continue;
    const bytes = await readFile(file);
    const variants: Array<[string, Buffer]> = [
      [
        ".br",
        await brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
      ],
      [".gz", await gz(bytes, { level: constants.Z_BEST_COMPRESSION })],
    ];
    for (const [suffix, compressed] of variants) {
      if (compressed.length >= bytes.length) continue;
      await writeFile(file + suffix, compressed);
      written.push(file + suffix);
    }
  }
  return written;
}

/** The build step: after Vite has written dist/ (the public folder included). */
export function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "spreadwatch-precompress",
    apply: "build",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
