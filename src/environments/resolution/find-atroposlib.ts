// Where the training Python's atroposlib lives, found without importing it (in the scan thread), so its own BaseEnvConfig can be read.
import { existsSync } from "node:fs";
import path from "node:path";

/** How to find atroposlib: a folder named by the settings, or the Python to ask (plain data, for the scan thread). */
export type AtroposlibLookup = { dir: string } | { python: string; cwd: string; env: Record<string, string> };

// find_spec of a top-level name locates the package without running its __init__.
const FIND_SPEC =
  "import importlib.util as u\ns = u.find_spec('atroposlib')\nprint((s.submodule_search_locations or [''])[0] if s else '')";

/** atroposlib's package folder (holding envs/base.py), or undefined when there is none to read. */
export async function findAtroposlib(lookup: AtroposlibLookup): Promise<string | undefined> {
  if ("dir" in lookup) return lookup.dir;
  // Loaded only when asked, off the scan's path: the scan thread starts without it.
  const { execa } = await import("execa");
  const result = await execa(lookup.python, ["-c", FIND_SPEC], {
    cwd: lookup.cwd,
    env: lookup.env,
    extendEnv: false,
    stdin: "ignore",
    reject: false,
    timeout: 10_000,
  });
  const out = result.exitCode === 0 ? String(result.stdout).trim() : "";
  // No such Python, no atroposlib, or a package without envs/base.py: the bundled table stands in.
  return out && existsSync(path.join(out, "envs", "base.py")) ? out : undefined;
}
