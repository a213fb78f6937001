// Measures cookbook recipe discovery against the ast oracle on a checkout: `npx tsx bench/cookbook-discovery-check.ts CHECKOUT`.
import path from "node:path";
import { compareCookbookDiscovery } from "./compare-cookbook-discovery.ts";

async function main(): Promise<void> {
  const checkout = process.argv[2];
  if (!checkout) {
    console.error("usage: npx tsx bench/cookbook-discovery-check.ts CHECKOUT (the folder holding tinker_cookbook/)");
    process.exitCode = 2;
    return;
  }
  const recipes = path.resolve(checkout, "tinker_cookbook", "recipes");
  const result = await compareCookbookDiscovery(recipes);
  console.log(
    `recipes with an entry point: oracle ${result.recipesByOracle}, discovery ${result.recipesByDiscovery}, both ${result.recipesInBoth}`,
  );
  console.log(`fields (name, type, default) matching: ${result.fieldsMatching} of ${result.fieldsByOracle}`);
  for (const mismatch of result.mismatches) console.log(`mismatch: ${mismatch}`);
  if (result.mismatches.length > 0) process.exitCode = 1;
}

void main();
