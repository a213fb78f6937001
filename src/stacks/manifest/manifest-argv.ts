// The command line a manifest run starts with: run.command with its placeholders filled in and {overrides} expanded
// into one argv element per changed or set field (two for the "--{key} {value}" form). Each value is one element as it
// is: nothing is split, quoted or read by a shell.
import { expandTemplate } from "./expand-template.ts";
import type { StackManifest } from "./manifest-schema.ts";

export type RunVariables = Partial<Record<string, string>>;

/** A field's value as text on the command line: text as it is, numbers and booleans as JSON writes them. */
export function overrideValueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "null";
  return JSON.stringify(value);
}

function overrideArgs(run: StackManifest["run"], name: string, value: unknown): string[] {
  const form = run.override;
  const key = run.key_case === "kebab" ? name.replaceAll("_", "-") : name;
  const text = overrideValueText(value);
  return form.split(" ").map((part: string) => part.replace("{key}", () => key).replace("{value}", () => text));
}

/** Values of a field map with their placeholders filled in (numbers and booleans kept as they are). */
function expandValues(values: Readonly<Record<string, unknown>>, vars: RunVariables): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, typeof v === "string" ? expandTemplate(v, vars) : v]),
  );
}

/**
 * Every field the run sets, in order: the channel's changes, the fork's fields when a fork field is among them, the
 * fields the bot sets on every run, then (resuming) the resume fields. A later one wins. A run resuming continues
 * from a checkpoint of its own: a fork's fields are dropped (prime-rl refuses resume.dir with resume.step).
 */
export function runFields(
  manifest: StackManifest,
  vars: RunVariables,
  values: Readonly<Record<string, unknown>>,
  resuming: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  const fork = manifest.fork;
  const forkField = fork && Object.keys(fork.set).find((k) => String(fork.set[k]).includes("{checkpoint}"));
  if (fork && forkField && typeof values[forkField] === "string")
    Object.assign(out, expandValues(fork.set, { ...vars, checkpoint: values[forkField] as string }));
  Object.assign(out, expandValues(manifest.run.set, vars));
  if (resuming && manifest.resume) {
    for (const key of [forkField, ...Object.keys(fork?.set ?? {})]) if (key) delete out[key];
    Object.assign(out, expandValues(manifest.resume.set, vars));
  }
  return out;
}

export function manifestArgv(
  manifest: StackManifest,
  vars: RunVariables,
  values: Readonly<Record<string, unknown>>,
  resuming: boolean,
): { command: string; args: string[]; env: Record<string, string> } {
  const fields = runFields(manifest, vars, values, resuming);
  const argv = manifest.run.command.flatMap((element) =>
    element === "{overrides}"
      ? Object.entries(fields).flatMap(([k, v]) => overrideArgs(manifest.run, k, v))
      : [expandTemplate(element, vars)],
  );
  const env = Object.fromEntries(Object.entries(manifest.run.env).map(([k, v]) => [k, expandTemplate(v, vars)]));
  return { command: argv[0]!, args: argv.slice(1), env };
}
