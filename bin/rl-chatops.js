#!/usr/bin/env node
// Entry point for the `rl-chatops` command and `npm start`: runs the TypeScript sources as one bundled JavaScript
// file (rebuilt when a source changes), or through tsx if bundling is not possible here.
import { pathToFileURL } from "node:url";
import { ensureBundle } from "./bundle.js";

let bundle;
try {
  bundle = await ensureBundle("src/cli.ts", "cli");
} catch (err) {
  process.stderr.write(`rl-chatops: running from source (could not bundle: ${err instanceof Error ? err.message : String(err)})\n`);
}
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli.ts");
}
