// The folder this package lives in, found from this file whether it runs from the sources or from dist/: the demo
// stack, the defaults and non-TypeScript assets (the Slurm job launcher, the built workers) are found from here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE_ROOT = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: string };
      if (pkg.name === "rl-chatops") return dir;
    } catch {
      // no package.json here: keep going up
    }
    if (path.dirname(dir) === dir) return path.resolve(start, "..");
  }
}
