// Reads a stack manifest file and checks it whole: its shape (zod), then what zod cannot see (placeholders in the
// right places, a regex that compiles, one fork field). Every refusal names the key and what is accepted.
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { RlError } from "../../errors.ts";
import { manifestSchema, PLACEHOLDERS, type Placeholder, type StackManifest } from "./manifest-schema.ts";
import { placeholdersIn } from "./expand-template.ts";

/** Readers a manifest may name that this version does not have yet. */
const READERS_TO_COME = new Set(["chz"]);
/** Readers that read Python classes, and so need entries.class. */
const CLASS_READERS = new Set(["dataclass", "pydantic"]);

function refuse(file: string, problems: string[]): never {
  throw new RlError(
    "CONFIG",
    `The stack manifest ${file} cannot be used:\n${problems.map((p) => `- ${p}`).join("\n")}\nFix the file (see docs/stack-manifest.md), then check it with rl-chatops stack check ${file}.`,
  );
}

const keyOf = (path: readonly PropertyKey[]) => (path.length ? path.map(String).join(".") : "(the file)");

/** zod's issue in words a manifest's author acts on: the key, then what it accepts. */
function describeIssue(
  issue: { path: readonly PropertyKey[]; message: string; code: string } & Record<string, unknown>,
) {
  const key = keyOf(issue.path);
  if (issue.code === "unrecognized_keys") {
    const keys = (issue.keys as string[] | undefined) ?? [];
    return `${keys.map((k) => (issue.path.length ? `${key}.${k}` : k)).join(", ")}: not a manifest key (check its spelling)`;
  }
  if (issue.code === "invalid_value" && Array.isArray(issue.values))
    return `${key}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) return `${key}: is required`;
  return `${key}: ${issue.message.replace(/^Invalid input: /, "")}`;
}

/** Where each placeholder may appear, beyond the ones every string of the run may use. */
const RUN_PLACEHOLDERS: Placeholder[] = ["python", "entry", "entry_name", "run_dir", "run_id", "attempt", "port"];

function checkStrings(where: string, values: Iterable<[string, unknown]>, allowed: readonly Placeholder[]): string[] {
  const problems: string[] = [];
  for (const [key, value] of values) {
    if (typeof value !== "string") continue;
    for (const name of placeholdersIn(value)) {
      if (!(name in PLACEHOLDERS))
        problems.push(
          `${where}.${key}: unknown placeholder {${name}} (known: ${Object.keys(PLACEHOLDERS)
            .map((p) => `{${p}}`)
            .join(", ")})`,
        );
      else if (!allowed.includes(name as Placeholder))
        problems.push(
          `${where}.${key}: {${name}} cannot be used here (here: ${allowed.map((p) => `{${p}}`).join(", ")})`,
        );
    }
  }
  return problems;
}

function checkCommand(manifest: StackManifest): string[] {
  const problems: string[] = [];
  const command = manifest.run.command;
  command.forEach((element, i) => {
    if (element.includes("{overrides}") && element !== "{overrides}")
      problems.push(
        `run.command.${i}: {overrides} must be an element of its own ("{overrides}"), not part of "${element}"`,
      );
  });
  problems.push(
    ...checkStrings(
      "run.command",
      command.map((c, i) => [String(i), c.replace("{overrides}", "")]),
      RUN_PLACEHOLDERS,
    ),
  );
  if (command[0]?.includes("{overrides}")) problems.push("run.command.0: must name the program, not {overrides}");
  return problems;
}

function checkRegex(manifest: StackManifest): string[] {
  if (!manifest.checkpoints) return [];
  let re: RegExp;
  try {
    re = new RegExp(manifest.checkpoints.step);
  } catch (err) {
    return [`checkpoints.step: not a regular expression (${(err as Error).message})`];
  }
  return new RegExp(`${re.source}|`).exec("")!.length < 2
    ? [`checkpoints.step: needs a group for the step number, e.g. "step_(\\\\d+)"`]
    : [];
}

function checkFork(manifest: StackManifest): string[] {
  if (!manifest.fork) return [];
  const withCheckpoint = Object.entries(manifest.fork.set).filter(
    ([, v]) => typeof v === "string" && v.includes("{checkpoint}"),
  );
  if (withCheckpoint.length !== 1)
    return [
      `fork.set: exactly one field must take "{checkpoint}" (the checkpoint's path); found ${withCheckpoint.length}`,
    ];
  if (!manifest.checkpoints) return ["fork: needs checkpoints (where the run's checkpoints are) to fork from one"];
  return [];
}

/** The semantic checks zod's shape does not make. */
function checkManifest(manifest: StackManifest): string[] {
  const problems = [...checkCommand(manifest), ...checkRegex(manifest), ...checkFork(manifest)];
  const reader = manifest.entries.fields;
  if (READERS_TO_COME.has(reader))
    problems.push(
      `entries.fields: the ${reader} reader is not in this version; use yaml, hydra, dataclass or pydantic`,
    );
  if (CLASS_READERS.has(reader) && manifest.entries.class === undefined)
    problems.push(
      `entries.class: is required with the ${reader} reader (the config class's dotted name, e.g. my_pkg.config.TrainConfig)`,
    );
  const { class: cls, python_path, bases_without_fields } = manifest.entries;
  if (!CLASS_READERS.has(reader) && (cls ?? python_path ?? bases_without_fields) !== undefined)
    problems.push(
      `entries.class, entries.python_path, entries.bases_without_fields: only the dataclass and pydantic readers read classes`,
    );
  problems.push(
    ...checkStrings("run.set", Object.entries(manifest.run.set), RUN_PLACEHOLDERS),
    ...checkStrings("run.env", Object.entries(manifest.run.env), RUN_PLACEHOLDERS),
    ...checkStrings("progress", [["metrics", manifest.progress.metrics]], ["run_dir", "run_id", "attempt"]),
    ...checkStrings(
      "checkpoints",
      [
        ["glob", manifest.checkpoints?.glob],
        ["latest", manifest.checkpoints?.latest],
      ],
      ["run_dir", "run_id"],
    ),
    ...checkStrings("samples", [["path", manifest.samples?.path]], ["run_dir", "run_id", "step"]),
    ...checkStrings("resume.set", Object.entries(manifest.resume?.set ?? {}), [
      ...RUN_PLACEHOLDERS,
      "checkpoint",
      "step",
    ]),
    ...checkStrings("fork.set", Object.entries(manifest.fork?.set ?? {}), [...RUN_PLACEHOLDERS, "checkpoint"]),
    ...checkStrings("entries", [["glob", manifest.entries.glob]], []),
  );
  if (manifest.resume && !manifest.checkpoints)
    problems.push("resume: needs checkpoints (where the run's checkpoints are) to resume from one");
  return problems;
}

/** A manifest from its parsed YAML; `file` names it in errors. */
export function parseManifest(data: unknown, file: string): StackManifest {
  const parsed = manifestSchema.safeParse(data);
  if (!parsed.success)
    refuse(
      file,
      parsed.error.issues.map((i) => describeIssue(i as never)),
    );
  const problems = checkManifest(parsed.data);
  if (problems.length) refuse(file, problems);
  return parsed.data;
}

export function loadManifest(file: string): StackManifest {
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (err) {
    throw new RlError(
      "CONFIG",
      `Could not read the stack manifest ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). Set RL_STACK to a built-in stack name or to a readable manifest file.`,
    );
  }
  let data: unknown;
  try {
    data = parseYaml(source, { prettyErrors: true });
  } catch (err) {
    refuse(file, [`not valid YAML: ${(err as Error).message.split("\n")[0]}`]);
  }
  return parseManifest(data, file);
}
