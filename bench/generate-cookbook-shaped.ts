// Writes a checkout shaped like tinker-cookbook's (thinking-machines-lab/tinker-cookbook, tinker_cookbook/recipes/,
// measured once and described here by numbers only; none of its files): 172 files under recipes/ in 15 recipe folders
// and 14 subfolders (one more below them, of images only): 113 Python files (746 KB) of which 41 are recipes with a chz
// entry point (2 at the top, 23 in the folders, 16 in subfolders), 7 __init__ files and 65 helper modules; and 59
// other files (27 READMEs, 29 images, a YAML, a word list, a .gitignore). Beside recipes/, the shared modules recipes
// take their field types and the RL loop's configs from, at their real sizes (cli_utils, utils/lr_scheduling,
// renderers, sandbox, rl/train.py with its chz config classes).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { helperSource, initSource, recipeSource, sharedModules, type EntryForm } from "./cookbook-source.ts";
import { fromDeciles, spread } from "./generate-atropos-shaped.ts";

export interface CookbookShapedFolder {
  /** The checkout: holds tinker_cookbook/. */
  checkout: string;
  recipesDir: string;
  /** Under recipes/: every file, the Python ones, and their bytes. */
  files: number;
  pythonFiles: number;
  pythonBytes: number;
  recipes: number;
  /** The shared modules outside recipes/ (files, bytes). */
  sharedFiles: number;
  sharedBytes: number;
}

/** Deciles of the recipes' sizes in bytes, and of the helper modules' (the cookbook's at the time it was measured). */
const RECIPE_BYTES = [555, 2883, 4488, 4677, 5482, 5991, 6281, 7423, 8502, 9723, 15186];
const HELPER_BYTES = [67, 1519, 2474, 3705, 4760, 5798, 7840, 9831, 10821, 16821, 31027];
const IMAGE_BYTES = [25034, 87050, 94940, 98025, 109611, 116431, 122013, 150922, 169552, 180977, 190974];
const README_BYTES = [1127, 1836, 1931, 2450, 2956, 3397, 4295, 4770, 5901, 8799, 62557];
const GROUPS = 15;
const SUBGROUPS = 14;
/** Where the recipes are: at the top, in the recipe folders, in their subfolders. */
const TOP_RECIPES = 2;
const GROUP_RECIPES = 23;
const SUB_RECIPES = 16;
const TOP_HELPERS = 2;
const GROUP_HELPERS = 38;
const SUB_HELPERS = 25;
/** __init__ files: 3 in recipe folders, 4 in subfolders, all but one empty. */
const GROUP_INITS = 3;
const SUB_INITS = 4;
const GROUP_READMES = 15;
const SUB_READMES = 11;
/** Images: 2 in a subfolder, 27 in the one folder below it. */
const IMAGES = 29;
const DEEP_IMAGES = 27;
/** Recipes by entry form (the cookbook's: 30 assign chz.entrypoint's result, 7 wrap it in cli_main, 4 nested). */
const FORMS: readonly EntryForm[] = [
  ...Array<EntryForm>(30).fill("assigned"),
  ...Array<EntryForm>(7).fill("wrapped"),
  ...Array<EntryForm>(3).fill("nested"),
  "imported",
];
/** Recipes whose config holds the RL loop's nested configs, and those using an alias from a sibling helper module. */
const NESTED_EVERY = 7;
const SIBLING_EVERY = 8;

const fieldsOf = (k: number) => 8 + Math.round(spread(k + 5) * 22);

function pseudoBytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  // A PNG signature, then bytes that do not compress (an image's, as far as a reader can tell).
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(out);
  let x = seed * 2654435761 + 1;
  for (let at = 8; at < length; at++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[at] = x >>> 24;
  }
  return out;
}

export function generateCookbookShaped(checkout: string): CookbookShapedFolder {
  const pkg = path.join(checkout, "tinker_cookbook");
  const recipesDir = path.join(pkg, "recipes");
  const result: CookbookShapedFolder = {
    checkout,
    recipesDir,
    files: 0,
    pythonFiles: 0,
    pythonBytes: 0,
    recipes: 0,
    sharedFiles: 0,
    sharedBytes: 0,
  };
  const write = (file: string, content: string | Buffer): void => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  };
  for (const [rel, text] of Object.entries(sharedModules())) {
    write(path.join(pkg, rel), text);
    result.sharedFiles += 1;
    result.sharedBytes += Buffer.byteLength(text);
  }
  const addRecipeFile = (rel: string, content: string | Buffer): void => {
    write(path.join(recipesDir, rel), content);
    result.files += 1;
    if (rel.endsWith(".py")) {
      result.pythonFiles += 1;
      result.pythonBytes += Buffer.byteLength(content);
    }
  };

  const groups = Array.from({ length: GROUPS }, (_, g) => `task_group_${String(g).padStart(2, "0")}`);
  const subgroups = Array.from({ length: SUBGROUPS }, (_, s) => `${groups[s % GROUPS]}/variant_${Math.floor(s / 4)}`);
  // Helper modules first, so the recipes can import from them: the first in each folder is the one a recipe may use.
  const helpersIn = new Map<string, Array<{ module: string; index: number }>>();
  let helper = 0;
  const addHelper = (folder: string, alias: boolean, runConfig: boolean): void => {
    const index = helper++;
    const module = `${["data", "env", "grading", "tools", "prompts"][index % 5]}_${index}`;
    addRecipeFile(
      path.join(folder, `${module}.py`),
      helperSource(index, fromDeciles(HELPER_BYTES, spread(index + 2)), { alias, runConfig }),
    );
    helpersIn.set(folder, [...(helpersIn.get(folder) ?? []), { module, index }]);
  };
  for (let k = 0; k < TOP_HELPERS; k++) addHelper("", false, false);
  for (let k = 0; k < GROUP_HELPERS; k++) addHelper(groups[k % GROUPS]!, k < GROUPS, false);
  for (let k = 0; k < SUB_HELPERS; k++) addHelper(subgroups[k % SUBGROUPS]!, k < SUBGROUPS, k === 0);

  const folders = [
    ...Array<string>(TOP_RECIPES).fill(""),
    ...Array.from({ length: GROUP_RECIPES }, (_, k) => groups[k % GROUPS]!),
    ...Array.from({ length: SUB_RECIPES }, (_, k) => subgroups[k % SUBGROUPS]!),
  ];
  const used = new Set<string>();
  folders.forEach((folder, k) => {
    // The one "imported" recipe (a subfolder's) runs the main of the helper module with a run config (the first subfolder's).
    const form = FORMS[(k * 11) % FORMS.length]!;
    const position = form === "imported" ? subgroups[0]! : folder;
    const sibling = helpersIn.get(position)?.[0];
    const useSibling = form === "imported" || (sibling !== undefined && k % SIBLING_EVERY === 3);
    const name = `${["train", "rl_train", "sl_train", "evaluate", "sweep"][k % 5]}`;
    let rel = path.join(position, `${name}.py`);
    for (let n = 2; used.has(rel); n++) rel = path.join(position, `${name}_${n}.py`);
    used.add(rel);
    const group = position.split("/").join(".");
    addRecipeFile(
      rel,
      recipeSource(
        {
          index: k,
          bytes: fromDeciles(RECIPE_BYTES, spread(k + 1)),
          form,
          fields: fieldsOf(k),
          nested: k % NESTED_EVERY === 2,
          ...(useSibling && sibling ? { sibling } : {}),
        },
        group,
      ),
    );
    result.recipes += 1;
  });

  for (let k = 0; k < GROUP_INITS; k++) addRecipeFile(path.join(groups[k * 4]!, "__init__.py"), initSource(0));
  for (let k = 0; k < SUB_INITS; k++) {
    addRecipeFile(path.join(subgroups[k]!, "__init__.py"), initSource(k === 0 ? 564 : 0));
  }
  addRecipeFile("README.md", "# Recipes\n\nGenerated for the benchmark.\n".padEnd(4000, "."));
  for (let k = 0; k < GROUP_READMES + SUB_READMES; k++) {
    const folder = k < GROUP_READMES ? groups[k]! : subgroups[k - GROUP_READMES]!;
    addRecipeFile(
      path.join(folder, "README.md"),
      `# ${folder}\n\n`.padEnd(fromDeciles(README_BYTES, spread(k + 13)), "Generated text. "),
    );
  }
  const imageFolder = subgroups[1]!;
  for (let k = 0; k < IMAGES; k++) {
    const folder = k < IMAGES - DEEP_IMAGES ? imageFolder : path.join(imageFolder, "figures");
    addRecipeFile(path.join(folder, `plot_${k}.png`), pseudoBytes(fromDeciles(IMAGE_BYTES, spread(k + 17)), k));
  }
  addRecipeFile(path.join(subgroups[2]!, "local.yaml"), "settings:\n".padEnd(4641, "  key: value\n"));
  addRecipeFile(path.join(subgroups[3]!, "words.txt"), "word\n".repeat(211));
  addRecipeFile(path.join(subgroups[3]!, ".gitignore"), "*.jsonl\n\n");
  return result;
}
