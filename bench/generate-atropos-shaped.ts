// Writes a folder shaped like Atropos's environments folder (NousResearch/atropos, environments/, measured once and
// described here by numbers only; none of its files): 18 environments at the top, 1.9-77 KB each, and, when
// recursive, 297 more files in 59 project folders (16 beside the top-level files, 43 under community/), nested up to
// six deep, with helper classes and helper modules without a class that the project's environment imports (all but a
// few), package __init__ files and a few large files: 315 files and about 4.3 MB in all.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { className, pythonSource, type SourceKind, type SourceSpec } from "./environment-source.ts";

export interface ShapedFolder {
  dir: string;
  files: number;
  bytes: number;
  /** Files by kind (direct, attribute, aliased, indirect environments; helper classes; modules; __init__ files). */
  kinds: Record<SourceKind, number>;
}

/** The top-level files' lengths in lines, as in Atropos's folder. */
const TOP_LINES = [58, 266, 300, 328, 330, 368, 396, 487, 501, 559, 624, 1126, 1183, 1260, 1604, 1718, 1756, 1875];
const TOP_KINDS: SourceKind[] = [
  "direct",
  "direct",
  "attribute",
  "direct",
  "aliased",
  "direct",
  "direct",
  "indirect",
  "direct",
  "direct",
  "direct",
  "attribute",
  "direct",
  "direct",
  "aliased",
  "direct",
  "indirect",
  "direct",
];
/** Deciles of the subfolders' file sizes in lines, by role (Atropos's in bytes / 37 bytes a line, at about its totals). */
const ENV_LINES = [52, 194, 280, 331, 387, 452, 516, 611, 778, 1174, 4660];
const CLASS_LINES = [16, 48, 88, 128, 172, 224, 280, 352, 456, 640, 1200];
const MODULE_LINES = [1, 1, 3, 6, 12, 27, 49, 64, 88, 118, 700];
const PROJECTS = 16;
const COMMUNITY = 43;
/** Subfolder files by role: 103 more environments (121 in all), 84 helper classes, 82 modules, 28 __init__ files. */
const SUB_ENVIRONMENTS = 103;
const SUB_HELPER_CLASSES = 84;
const SUB_MODULES = 82;
const SUB_INITS = 28;
/** Share of each file that is prompt text (Atropos files carry long prompts and docstrings, not only code). */
const PROMPT_SHARE = 0.5;
/** One helper file in this many is imported by no environment (Atropos: 12 of 315 files nothing reaches). */
const UNIMPORTED_ONE_IN = 14;
const NESTED = ["src", "src/core", "models", "utils", "src/core/impl", "src/core/impl/deep"];

/** A deterministic spread over [0, 1): the k-th point of the golden-ratio sequence. */
export const spread = (k: number): number => (k * 0.6180339887) % 1;

export function fromDeciles(deciles: readonly number[], u: number): number {
  const at = u * (deciles.length - 1);
  const low = Math.floor(at);
  const high = Math.min(deciles.length - 1, low + 1);
  return Math.max(1, Math.round(deciles[low]! + (deciles[high]! - deciles[low]!) * (at - low)));
}

export function generateAtroposShaped(dir: string, recursive: boolean): ShapedFolder {
  const kinds: ShapedFolder["kinds"] = {
    direct: 0,
    attribute: 0,
    aliased: 0,
    indirect: 0,
    helper: 0,
    module: 0,
    init: 0,
  };
  let files = 0;
  let bytes = 0;
  let index = 0;
  const write = (relPath: string, spec: Omit<SourceSpec, "index">): number => {
    const own = index++;
    const text = pythonSource({ promptShare: PROMPT_SHARE, ...spec, index: own });
    const file = path.join(dir, relPath);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    kinds[spec.kind] += 1;
    files += 1;
    bytes += Buffer.byteLength(text);
    return own;
  };

  // The top level: environments, two of them deriving from an earlier one (as math_server_zero does from math_server).
  const topModules: Array<{ module: string; index: number }> = [];
  TOP_LINES.forEach((lines, k) => {
    const kind = TOP_KINDS[k]!;
    const module = `task_${String(k).padStart(2, "0")}_server`;
    const first = topModules[0];
    const own = write(`${module}.py`, {
      kind,
      lines,
      ...(kind === "indirect" && first ? { base: { module: first.module, className: className(first.index) } } : {}),
    });
    topModules.push({ module, index: own });
  });
  if (!recursive) return { dir, files, bytes, kinds };

  const projects = [
    ...Array.from({ length: PROJECTS }, (_, k) => `project_${String(k).padStart(2, "0")}_environment`),
    ...Array.from({ length: COMMUNITY }, (_, k) => `community/proj_${String(k).padStart(2, "0")}`),
  ];
  // Where each project's files go: most at its root, some nested (the deepest under community/, six levels down).
  const folderOf = (project: number, k: number): string => {
    const nested = k % 4 === 3 ? NESTED[(project + k) % (project >= PROJECTS ? NESTED.length : 3)] : undefined;
    return nested ? `${projects[project]}/${nested}` : projects[project]!;
  };
  // Helpers first, so the environments can import them: each project's first environment imports its helper classes
  // and modules, as Atropos's do, except for one file in 25 (a script or test nothing imports).
  const helpersOf = new Map<number, Array<{ module: string; index: number }>>();
  const helper = (p: number, k: number, name: string, spec: Omit<SourceSpec, "index">): void => {
    const folder = folderOf(p, k);
    const index = write(`${folder}/${name}.py`, spec);
    if (k % UNIMPORTED_ONE_IN === UNIMPORTED_ONE_IN - 1) return;
    // Imported by its path from the project's folder (src.core.scoring_3), as a package would be.
    const module = [...path.posix.relative(projects[p]!, folder).split("/").filter(Boolean), name].join(".");
    helpersOf.set(p, [...(helpersOf.get(p) ?? []), { module, index }]);
  };
  for (let k = 0; k < SUB_HELPER_CLASSES; k++) {
    // As in Atropos, a file of helper classes does not mention BaseEnv.
    helper((k * 7) % projects.length, k, `helper_classes_${k}`, {
      kind: "helper",
      lines: fromDeciles(CLASS_LINES, spread(k + 3)),
      helperImportsBaseEnv: false,
    });
  }
  for (let k = 0; k < SUB_MODULES; k++) {
    const name = ["utils", "prompts", "scoring", "test_local", "dataset_tools", "run_eval"][k % 6];
    helper((k * 5 + 1) % projects.length, k + SUB_HELPER_CLASSES, `${name}_${k}`, {
      kind: "module",
      lines: fromDeciles(MODULE_LINES, spread(k + 11)),
    });
  }
  // Environments: one per project, then a second one in 44 projects, deriving from the first in every other one.
  const firstEnv = new Map<number, { module: string; index: number }>();
  for (let k = 0; k < SUB_ENVIRONMENTS; k++) {
    const p = k % projects.length;
    const project = projects[p]!;
    const first = firstEnv.get(p);
    const kind: SourceKind =
      first && k % 2 === 0 ? "indirect" : (["direct", "direct", "direct", "attribute", "aliased"] as const)[k % 5]!;
    const module = `${path.posix.basename(project)}_env${first ? "_v2" : ""}`;
    const own = write(`${project}/${module}.py`, {
      kind,
      lines: fromDeciles(ENV_LINES, spread(k + 7)),
      uses: first ? [] : (helpersOf.get(p) ?? []),
      ...(kind === "indirect" && first ? { base: { module: first.module, className: className(first.index) } } : {}),
    });
    if (!first) firstEnv.set(p, { module, index: own });
  }
  // Package files: at the root of each top-level project, and in the src/ of some community projects.
  for (let k = 0; k < SUB_INITS; k++) {
    const folder = k < PROJECTS ? projects[k] : `${projects[PROJECTS + (k - PROJECTS) * 3]}/src`;
    write(`${folder}/__init__.py`, { kind: "init", lines: k % 4 === 0 ? 12 : 1 });
  }
  return { dir, files, bytes, kinds };
}
