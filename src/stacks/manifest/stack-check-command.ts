// `rl-chatops stack check FILE [--entry NAME]`: validates a stack manifest and prints what the bot would run for one of
// its entries with a sample change, the files it would read, and what it can resume and fork. Nothing is run.
import path from "node:path";
import type { CommandLine } from "../../cli/parse-command-line.ts";
import { UsageError } from "../../cli/parse-command-line.ts";
import { loadConfig } from "../../config.ts";
import { RlError } from "../../errors.ts";
import { loadLockedFields } from "../../locked-fields.ts";
import { loadManifest } from "./load-manifest.ts";
import { manifestArgv } from "./manifest-argv.ts";
import type { StackManifest } from "./manifest-schema.ts";
import { createManifestScanner } from "./manifest-scanner.ts";
import type { ConfigField } from "../../environments/types.ts";

/** An argv element as a person reads it: bare when it holds nothing a reader could misread, else JSON-quoted. */
const shown = (element: string) => (/^[\w@%+=:,./{}<>-]+$/.test(element) ? element : JSON.stringify(element));

const RUN_VARS = { run_dir: "<run dir>", run_id: "<run id>", attempt: "0", port: "<port>" };

function sampleChange(fields: readonly ConfigField[]): Record<string, unknown> {
  const field = fields.find(
    (f) => !f.locked && f.default !== undefined && f.default !== null && typeof f.default !== "object",
  );
  return field ? { [field.name]: field.default } : {};
}

function describeFiles(manifest: StackManifest): string[] {
  const lines = [
    `Progress: ${manifest.progress.metrics} (step at "${manifest.progress.step}"${manifest.progress.reward ? `, reward at "${manifest.progress.reward}"` : ", no reward"})`,
    manifest.checkpoints
      ? `Checkpoints: ${manifest.checkpoints.glob} (step from /${manifest.checkpoints.step}/${manifest.checkpoints.latest ? `, none past the step in ${manifest.checkpoints.latest}` : ""})`
      : "Checkpoints: none (no checkpoints: key)",
    manifest.samples ? `Samples: ${manifest.samples.path}` : "Samples: none (no samples: key)",
  ];
  const sets = (set: Record<string, unknown>) =>
    Object.entries(set)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(" ");
  lines.push(manifest.resume ? `Resume: sets ${sets(manifest.resume.set)}` : "Resume: cannot (no resume: key)");
  lines.push(manifest.fork ? `Fork: sets ${sets(manifest.fork.set)}` : "Fork: cannot (no fork: key)");
  return lines;
}

export async function runStackLine(line: CommandLine): Promise<number> {
  const [action, file] = line.args;
  if (action !== "check" || !file)
    throw new UsageError('"stack" takes check and a manifest file, e.g. rl-chatops stack check ./stack.yaml.');
  const manifestFile = path.resolve(file);
  const manifest = loadManifest(manifestFile);
  const config = loadConfig({ ...process.env, RL_STACK: manifestFile });
  const locked = loadLockedFields(config.lockedFieldsPath).stack;
  const scan = await createManifestScanner(manifest, { locked, maxFileBytes: config.scanMaxFileBytes }).scan(
    config.environmentsDir,
  );
  const out: string[] = [
    `✓ ${manifestFile} is a valid stack manifest: stack "${manifest.name}", ${scan.environments.length} ${manifest.unit}${scan.environments.length === 1 ? "" : "s"} in ${config.environmentsDir} (${manifest.entries.glob}).`,
  ];
  for (const w of scan.warnings) out.push(`warning: ${w.filePath}: ${w.message}`);
  const wanted = line.options.entry;
  const entry = wanted ? scan.environments.find((e) => e.name === wanted) : scan.environments[0];
  if (wanted && !entry)
    throw new RlError(
      "NOT_FOUND",
      `No ${manifest.unit} "${wanted}" in ${config.environmentsDir}. Found: ${scan.environments.map((e) => e.name).join(", ") || "none"}.`,
    );
  if (entry) {
    out.push(
      `${manifest.unit[0]!.toUpperCase()}${manifest.unit.slice(1)}s: ${scan.environments.map((e) => e.name).join(", ")}`,
    );
    const change = sampleChange(entry.fields);
    const vars = { ...RUN_VARS, python: config.python, entry: entry.filePath, entry_name: entry.name };
    const { command, args, env } = manifestArgv(manifest, vars, { ...change, ...locked }, false);
    const changed = Object.keys(change).length
      ? `with ${Object.entries(change)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(" ")} changed`
      : "with no change";
    out.push(
      `A run of ${entry.name} ${changed} would start, in ${config.trainingRoot}:`,
      `  ${[command, ...args].map(shown).join(" ")}`,
    );
    for (const [k, v] of Object.entries(env)) out.push(`  with ${k}=${v}`);
    out.push(`${entry.fields.length} config fields, ${entry.fields.filter((f) => f.locked).length} locked.`);
  } else
    out.push(
      `No ${manifest.unit} matches ${manifest.entries.glob} in ${config.environmentsDir}: /rl envs would list none.`,
    );
  out.push(...describeFiles(manifest));
  if (line.options.json)
    process.stdout.write(
      `${JSON.stringify({ valid: true, name: manifest.name, entries: scan.environments.map((e) => e.name) })}\n`,
    );
  else process.stdout.write(`${out.join("\n")}\n`);
  return 0;
}
