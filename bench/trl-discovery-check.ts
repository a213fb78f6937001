// Measures the trl-grpo stack's discovery against Python's `ast` reading the same dataclasses (bench/dataclass-fields.py,
// nothing imported) with each recipe read by PyYAML: `npx tsx bench/trl-discovery-check.ts ROOT [PYTHON]`, ROOT the
// folder of train_grpo.py and recipes/ with trl (and transformers) importable from it.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { compareWithOracle, type StackDiscovery } from "./prime-rl-discovery-check.ts";
import { classesOf } from "../src/stacks/manifest/read-class-fields.ts";

export function compareTrl(checkout: string, python = "python3"): Promise<StackDiscovery> {
  const root = path.resolve(checkout);
  return compareWithOracle("trl-grpo", root, (files, manifest) => {
    const oracle = path.join(import.meta.dirname, "dataclass-fields.py");
    const classes = classesOf(manifest.entries).join(",");
    return JSON.parse(execFileSync(python, [oracle, root, classes, ...files], { encoding: "utf8" })) as Record<
      string,
      Record<string, unknown>
    >;
  });
}

async function main(): Promise<void> {
  const [checkout, python] = process.argv.slice(2);
  if (!checkout) {
    console.error("usage: npx tsx bench/trl-discovery-check.ts ROOT [PYTHON]");
    process.exitCode = 2;
    return;
  }
  const result = await compareTrl(checkout, python);
  console.log(`entries: ${result.entries.join(", ") || "none"}`);
  console.log(`fields (name, default) right: ${result.right} of ${result.total}`);
  for (const m of result.mismatches) console.log(`mismatch: ${m}`);
  if (result.mismatches.length) process.exitCode = 1;
}

if (process.argv[1] === import.meta.filename) void main();
