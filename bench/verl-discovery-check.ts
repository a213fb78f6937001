// Measures the verl stack's discovery on a verl checkout against the real OmegaConf: the built-in manifest's hydra
// reader composes verl/trainer/config/ppo_trainer.yaml, and OmegaConf reads _generated_ppo_trainer.yaml, which verl's
// CI writes from Hydra's own composition. `npx tsx bench/verl-discovery-check.ts CHECKOUT [PYTHON]` (PYTHON has
// omegaconf: Debian's /usr/bin/python3 with python3-omegaconf, the default).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { BUILTIN_MANIFESTS_DIR } from "../src/config.ts";
import { loadManifest } from "../src/stacks/manifest/load-manifest.ts";
import { createManifestScanner } from "../src/stacks/manifest/manifest-scanner.ts";

async function main(): Promise<void> {
  const [checkout, python = "/usr/bin/python3"] = process.argv.slice(2);
  if (!checkout) {
    console.error("usage: npx tsx bench/verl-discovery-check.ts CHECKOUT [PYTHON] (the folder holding verl/)");
    process.exitCode = 2;
    return;
  }
  const root = path.resolve(checkout);
  const manifest = loadManifest(path.join(BUILTIN_MANIFESTS_DIR, "verl.yaml"));
  const scan = await createManifestScanner(manifest, { locked: {}, maxFileBytes: 10_000_000 }).scan(root);
  console.log(`entries: ${scan.environments.map((e) => e.name).join(", ") || "none"}`);
  for (const w of scan.warnings) console.log(`warning: ${w.filePath}: ${w.message}`);
  const entry = scan.environments.find((e) => e.name === "ppo_trainer");
  if (!entry) {
    process.exitCode = 1;
    return;
  }
  const generated = path.join(root, "verl", "trainer", "config", "_generated_ppo_trainer.yaml");
  const oracle = path.join(import.meta.dirname, "omegaconf-flat.py");
  const real = JSON.parse(execFileSync(python, [oracle, generated], { encoding: "utf8" })) as Record<
    string,
    [string, unknown]
  >;
  const ours = new Map(entry.fields.filter((f) => !f.locked || f.name in real).map((f) => [f.name, f]));
  let right = 0;
  for (const [name, [type, value]] of Object.entries(real)) {
    const field = ours.get(name);
    const got = field && [field.type, field.defaultExpr ?? field.default];
    if (field && JSON.stringify(got) === JSON.stringify([type, value])) right++;
    else console.log(`mismatch: ${name}: OmegaConf ${JSON.stringify([type, value])}, discovery ${JSON.stringify(got)}`);
  }
  const extra = [...ours.keys()].filter((n) => !(n in real));
  console.log(`fields (name, type, default) right: ${right} of ${Object.keys(real).length}`);
  // verl's generator keeps the lines from actor_rollout_ref on (scripts/generate_trainer_config.sh): a global key
  // written before it, such as model_engine, is in the composed config but not in the file.
  if (extra.length) console.log(`in the composition, not in the generated file: ${extra.join(", ")}`);
  if (right !== Object.keys(real).length) process.exitCode = 1;
}

void main();
