// Loads a CommonJS program of the build with the V8 code cache the build made for it: compiling a large program, and
// then each function it runs the first time, is a good part of a one-shot command's time (scan's settings and
// scanners, dist/scan-folder.cjs: about 20 ms of a 200 ms scan, side by side). The build runs the command once and
// keeps what V8 compiled (bin/build.mjs, makeCodeCaches); a later run starts from it.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

/**
 * The cache beside the program. It holds MAGIC, the program's own bytes, then V8's data: it is used only for those
 * very bytes (V8's own check compares lengths, not contents), and only by the V8 that made it, under the same V8 flags
 * (V8 refuses another's: a cache made by `node bin/rl-chatops.js` is not taken under `--max-semi-space-size`).
 */
export const codeCacheFileOf = (file: string): string => `${file}.v8-cache`;

/** Set only by the build, for the run that makes the caches: the process writes them as it exits. */
export const WRITE_CODE_CACHE = "RL_BUILD_WRITE_CODE_CACHE";

/** A CommonJS file's code as Node wraps it (its lines keep their numbers). */
const wrap = (code: string): string => `(function (exports, require, module, __filename, __dirname) { ${code}\n});`;

/** Names the format and the wrapper: a cache made for other code around the program's is not taken either. */
const MAGIC = Buffer.from(`rl-chatops code cache 1 ${wrap("")}\n`);

export interface LoadedProgram {
  exports: unknown;
  /** Whether V8 took the cache (false: none, made for other bytes, or refused). */
  fromCache: boolean;
}

function matchingCache(file: string, source: Buffer): Buffer | undefined {
  let cache: Buffer;
  try {
    cache = readFileSync(codeCacheFileOf(file));
  } catch {
    return undefined;
  }
  const start = MAGIC.length;
  const end = start + source.length;
  if (cache.length <= end || !cache.subarray(0, start).equals(MAGIC) || !cache.subarray(start, end).equals(source))
    return undefined;
  return cache.subarray(end);
}

function writeCache(file: string, source: Buffer, script: vm.Script): void {
  const target = codeCacheFileOf(file);
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, Buffer.concat([MAGIC, source, script.createCachedData()]));
  renameSync(temp, target);
}

/** Runs the CommonJS file `file` as require() would, compiled from its code cache when there is one for it. */
export function requireWithCodeCache(file: string): LoadedProgram {
  const source = readFileSync(file);
  const cachedData = matchingCache(file, source);
  const script = new vm.Script(wrap(source.toString("utf8")), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as unknown, id: file, filename: file };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  if (process.env[WRITE_CODE_CACHE] === "1") process.once("exit", () => writeCache(file, source, script));
  return { exports: module.exports, fromCache: cachedData !== undefined && !script.cachedDataRejected };
}
