// Bundles a TypeScript entry into one ESM file (packages stay external) when a source changed, so the bot runs
// as plain JavaScript: no loader thread in memory, no per-module transform at start.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE_DIRS = ["src", "adapters", "commands", "db", "bench"];
const CACHE = path.join(ROOT, "node_modules", ".cache", "rl-chatops");

/** Newest modification time and count of the TypeScript sources: the bundle's freshness stamp. */
function sourceStamp() {
  let newest = statSync(path.join(ROOT, "package-lock.json")).mtimeMs;
  let count = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts")) {
        count += 1;
        newest = Math.max(newest, statSync(full).mtimeMs);
      }
    }
  };
  for (const dir of SOURCE_DIRS) if (existsSync(path.join(ROOT, dir))) walk(path.join(ROOT, dir));
  return `${newest}:${count}`;
}

/** The path of an up-to-date bundle of `entry` (relative to the package root), building it when needed. */
export async function ensureBundle(entry, name) {
  const outfile = path.join(CACHE, `${name}.mjs`);
  const stampFile = path.join(CACHE, `${name}.stamp`);
  const stamp = sourceStamp();
  if (existsSync(outfile) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return outfile;
  const { build } = await import("esbuild");
  mkdirSync(CACHE, { recursive: true });
  // Built beside the target and renamed, so processes starting at the same moment never load half a file.
  const temp = `${outfile}.${process.pid}.tmp.mjs`;
  await build({
    entryPoints: [path.join(ROOT, entry)],
    outfile: temp,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error",
  });
  renameSync(temp, outfile);
  writeFileSync(stampFile, stamp);
  return outfile;
}
