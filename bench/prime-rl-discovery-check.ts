// Measures the prime-rl stack's discovery on a prime-rl checkout against the real pydantic: the built-in manifest's
// pydantic reader (tree-sitter, nothing run) against RLConfig imported by pydantic, with each rl.toml laid over it by
// tomllib (bench/pydantic-fields.py). `npx tsx bench/prime-rl-discovery-check.ts CHECKOUT [PYTHON]` (PYTHON has
// pydantic 2; the classes' own imports must resolve there).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { BUILTIN_MANIFESTS_DIR } from "../src/config.ts";
import type { ConfigField } from "../src/environments/types.ts";
import { loadManifest } from "../src/stacks/manifest/load-manifest.ts";
import { createManifestScanner } from "../src/stacks/manifest/manifest-scanner.ts";
import type { StackManifest } from "../src/stacks/manifest/manifest-schema.ts";

/** A field's default as the oracle writes it: computed when the config is built, required, or the value. */
export const defaultOf = (f: Pick<ConfigField, "default" | "defaultExpr">) =>
  f.defaultExpr !== undefined ? "<computed>" : f.default === undefined ? "<required>" : f.default;

export interface StackDiscovery {
  entries: string[];
  right: number;
  total: number;
  mismatches: string[];
}

/** A built-in stack's discovery on `root` against an oracle's fields per entry file (name -> default). */
export async function compareWithOracle(
  stack: string,
  root: string,
  oracle: (files: string[], manifest: StackManifest) => Record<string, Record<string, unknown>>,
): Promise<StackDiscovery> {
  const manifest = loadManifest(path.join(BUILTIN_MANIFESTS_DIR, `${stack}.yaml`));
  const scan = await createManifestScanner(manifest, { locked: {}, maxFileBytes: 10_000_000 }).scan(root);
  const real = oracle(
    scan.environments.map((e) => e.filePath),
    manifest,
  );
  const out: StackDiscovery = { entries: scan.environments.map((e) => e.name), right: 0, total: 0, mismatches: [] };
  for (const entry of scan.environments) {
    const ours = new Map(entry.fields.filter((f) => !f.locked).map((f) => [f.name, defaultOf(f)]));
    for (const [name, value] of Object.entries(real[entry.filePath] ?? {})) {
      if (entry.fields.find((f) => f.name === name)?.locked) continue;
      out.total++;
      if (ours.has(name) && JSON.stringify(ours.get(name)) === JSON.stringify(value)) out.right++;
      else
        out.mismatches.push(
          `${entry.name}: ${name}: oracle ${JSON.stringify(value)}, discovery ${JSON.stringify(ours.get(name))}`,
        );
      ours.delete(name);
    }
    for (const name of ours.keys()) out.mismatches.push(`${entry.name}: ${name}: not a field for the oracle`);
  }
  return out;
}

export function comparePrimeRl(checkout: string, python = "python3"): Promise<StackDiscovery> {
  const root = path.resolve(checkout);
  return compareWithOracle("prime-rl", root, (files, manifest) => {
    // The classes' own imports from outside the checkout (pydantic_config, ...) come from the caller's PYTHONPATH.
    const pythonPath = [...(manifest.entries.python_path ?? []).map((p) => path.join(root, p)), process.env.PYTHONPATH];
    const env = { ...process.env, PYTHONPATH: pythonPath.filter(Boolean).join(":") };
    const oracle = path.join(import.meta.dirname, "pydantic-fields.py");
    return JSON.parse(
      execFileSync(python, [oracle, String(manifest.entries.class), ...files], { encoding: "utf8", env, cwd: root }),
    ) as Record<string, Record<string, unknown>>;
  });
}

async function main(): Promise<void> {
  const [checkout, python] = process.argv.slice(2);
  if (!checkout) {
    console.error("usage: npx tsx bench/prime-rl-discovery-check.ts CHECKOUT [PYTHON] (the prime-rl folder)");
    process.exitCode = 2;
    return;
  }
  const result = await comparePrimeRl(checkout, python);
  console.log(`entries: ${result.entries.join(", ") || "none"}`);
  console.log(`fields (name, default) right: ${result.right} of ${result.total}`);
  for (const m of result.mismatches) console.log(`mismatch: ${m}`);
  if (result.mismatches.length) process.exitCode = 1;
}

if (process.argv[1] === import.meta.filename) void main();
