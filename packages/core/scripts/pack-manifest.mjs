// prepack/postpack: the package.json inside the tarball. In the workspace `exports` names
// src/index.ts, so tests and dev run the TypeScript sources with no build; the tarball must name
// the built dist/ instead. pnpm applies `publishConfig` by itself, npm does not, so `apply` writes
// the packed manifest in place (the workspace one kept beside it) and `restore` puts it back.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const core = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = join(core, "package.json");
const kept = join(core, "package.json.workspace");

/** Writes through a temporary file, so nothing ever reads half a manifest. */
function writeAtomically(path, text) {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

function restore() {
  if (existsSync(kept)) renameSync(kept, manifest);
}

function apply() {
  // A pack that was interrupted left the packed manifest in place: start from the kept one.
  restore();
  const text = readFileSync(manifest, "utf8");
  const {
    publishConfig = {},
    scripts,
    devDependencies,
    dependencies,
    private: _,
    ...packed
  } = JSON.parse(text);
  // `private` stays in the workspace so a recursive publish never sends it by accident; the
  // tarball itself may go to a registry (`npm publish <tarball>`). devDependencies (`catalog:`
  // versions only pnpm understands) mean nothing to an installer; `dependencies` (jsep) is
  // embedded in dist/vendor by the build, so the tarball needs none. prepack and postpack stay
  // because npm reads them from the manifest on disk: after a pack that died halfway, the next
  // one finds only this manifest, and must still rebuild and restore.
  Object.assign(packed, publishConfig, {
    scripts: { prepack: scripts.prepack, postpack: scripts.postpack },
  });
  writeFileSync(kept, text);
  writeAtomically(manifest, `${JSON.stringify(packed, null, 2)}\n`);
}

const command = process.argv[2];
if (command === "apply") apply();
else if (command === "restore") restore();
else {
  console.error("usage: node scripts/pack-manifest.mjs apply|restore");
  process.exit(2);
}
