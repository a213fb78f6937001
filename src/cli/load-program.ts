// Loads one of the build's CommonJS programs (bin/build.mjs, COMMONJS) from the file beside the caller's: in dist/
// the .cjs file, with require (a CommonJS caller then never starts Node's ES module loader); from the sources, the
// TypeScript file. The name is made at run time, so the bundler leaves the program out of the caller's file.
import { createRequire } from "node:module";

/** `from`: the caller's import.meta.url. `source` and `built` are relative to it. */
export async function loadProgram<T>(from: string, source: string, built: string): Promise<T> {
  if (from.endsWith(".ts")) return (await import(new URL(source, from).href)) as T;
  return createRequire(from)(built) as T;
}
