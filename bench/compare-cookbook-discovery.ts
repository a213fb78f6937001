// Compares the cookbook recipe discovery with the independent ast oracle (test/stacks/tinker-cookbook/chz_fields_oracle.py).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRecipeScanner } from "../src/environments/recipes/index.ts";
import type { ConfigField } from "../src/environments/types.ts";

const ORACLE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "test",
  "stacks",
  "tinker-cookbook",
  "chz_fields_oracle.py",
);

interface OracleField {
  name: string;
  type: string;
  default: "required" | "computed" | { value: unknown };
}

interface OracleRecipe {
  name: string;
  configClass: string | null;
  fields: OracleField[];
}

export interface DiscoveryComparison {
  recipesByOracle: number;
  recipesByDiscovery: number;
  recipesInBoth: number;
  fieldsByOracle: number;
  fieldsMatching: number;
  mismatches: string[];
}

/** The oracle's view of a field's default, from what discovery says about it. */
function defaultOf(field: ConfigField): OracleField["default"] {
  if (field.defaultExpr !== undefined) return "computed";
  if (field.default === undefined) return "required";
  return { value: field.default };
}

/** Run discovery and the oracle on `recipesDir` and compare recipes and each field's name, type and default. */
export async function compareCookbookDiscovery(recipesDir: string): Promise<DiscoveryComparison> {
  const oracle = JSON.parse(
    execFileSync("python3", [ORACLE, recipesDir], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }),
  ) as OracleRecipe[];
  const { environments } = await createRecipeScanner().scan(recipesDir);
  const found = new Map(environments.map((recipe) => [recipe.name, recipe]));
  const comparison: DiscoveryComparison = {
    recipesByOracle: oracle.length,
    recipesByDiscovery: environments.length,
    recipesInBoth: 0,
    fieldsByOracle: 0,
    fieldsMatching: 0,
    mismatches: [],
  };
  const expectedNames = new Set(oracle.map((recipe) => recipe.name));
  for (const recipe of environments) {
    if (!expectedNames.has(recipe.name)) comparison.mismatches.push(`${recipe.name}: found only by discovery`);
  }
  for (const expected of oracle) {
    comparison.fieldsByOracle += expected.fields.length;
    const recipe = found.get(expected.name);
    if (!recipe) {
      comparison.mismatches.push(`${expected.name}: found only by the oracle`);
      continue;
    }
    comparison.recipesInBoth += 1;
    // The oracle names no class when it cannot read one; discovery still names the one the entry point gives.
    if (expected.configClass !== null && expected.configClass !== recipe.configClass) {
      comparison.mismatches.push(
        `${expected.name}: config class ${recipe.configClass} (oracle ${expected.configClass})`,
      );
    }
    const fields = new Map(recipe.fields.map((field) => [field.name, field]));
    for (const want of expected.fields) {
      const got = fields.get(want.name);
      fields.delete(want.name);
      if (!got) {
        comparison.mismatches.push(`${expected.name}: field ${want.name} missing`);
        continue;
      }
      const problems: string[] = [];
      if (got.type !== want.type) problems.push(`type ${JSON.stringify(got.type)} vs ${JSON.stringify(want.type)}`);
      const gotDefault = JSON.stringify(defaultOf(got));
      if (gotDefault !== JSON.stringify(want.default))
        problems.push(`default ${gotDefault} vs ${JSON.stringify(want.default)}`);
      if (problems.length === 0) comparison.fieldsMatching += 1;
      else comparison.mismatches.push(`${expected.name}: ${want.name}: ${problems.join("; ")} (discovery vs oracle)`);
    }
    for (const extra of fields.keys()) comparison.mismatches.push(`${expected.name}: field ${extra} only in discovery`);
  }
  return comparison;
}
