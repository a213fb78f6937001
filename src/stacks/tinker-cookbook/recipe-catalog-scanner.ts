// What the catalog scans with on the cookbook stack: the recipes as discovery reads them, with the fields the bot sets
// for every run and those the locked fields file names (its `recipe:` section) marked locked.
import type { Scanner } from "../../environments/resolution/catalog.ts";
import type { ConfigField } from "../../environments/types.ts";
import type { LockedFields } from "../../locked-fields.ts";
import { BOT_SET_RECIPE_FIELDS } from "./cookbook-stack.ts";
import { createProcessScanner } from "../../environments/discovery-process/process-scanner.ts";

function lockField(field: ConfigField, locked: LockedFields): ConfigField {
  const botSet = BOT_SET_RECIPE_FIELDS[field.name];
  if (botSet !== undefined) return { ...field, locked: true, lockedValue: `set by the bot for each run: ${botSet}` };
  if (Object.hasOwn(locked.recipe, field.name))
    return { ...field, locked: true, lockedValue: locked.recipe[field.name] };
  return field;
}

export function createRecipeCatalogScanner(
  locked: LockedFields,
  options: { maxFileBytes?: number } = {},
): Scanner & { close(): Promise<void> } {
  // In the discovery process, as environments are: parsing recipes never holds the bot's event loop.
  const scanner = createProcessScanner({ kind: "recipes", lockedEnv: {}, maxFileBytes: options.maxFileBytes });
  return {
    async scan(dir) {
      const result = await scanner.scan(dir);
      return {
        ...result,
        environments: result.environments.map((env) => ({
          ...env,
          fields: env.fields.map((f) => lockField(f, locked)),
        })),
      };
    },
    close: () => scanner.close(),
  };
}
