// Loads one of the build's CommonJS programs (bin/build.mjs, COMMONJS) from the file beside the caller's: in dist/
// the .cjs file, compiled from its code cache when the build made one (code-cache.ts), never through Node's ES module
// loader; from the sources, the TypeScript file. The name is made at run time, so the bundler leaves the program out of
// the caller's file. Each program is loaded once per process.
import { fileURLToPath } from "node:url";
import { requireWithCodeCache } from "./code-cache.ts";

const loaded = new Map<string, Promise<unknown>>();

/** `from`: the caller's import.meta.url. `source` and `built` are relative to it. */
export function loadProgram<T>(from: string, source: string, built: string): Promise<T> {
  const url = new URL(from.endsWith(".ts") ? source : built, from).href;
  let program = loaded.get(url);
  if (!program) {
    program = from.endsWith(".ts")
      ? import(url)
      : Promise.resolve().then(() => requireWithCodeCache(fileURLToPath(url)).exports);
    loaded.set(url, program);
  }
  return program as Promise<T>;
}
