#!/usr/bin/env node
// Builds the bot into dist/ with esbuild: one ESM entry per program (the CLI and the discovery workers), code that is
// imported lazily or shared in dist/chunks/, npm packages left to node_modules; exec and scan as CommonJS files.
// `npm ci` runs it (prepare), and so do `npm run build`, the test run (vitest globalSetup) and `npm run bench`, so
// what runs is always the current sources.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = path.join(ROOT, "dist");

/**
 * dist/<name>.js for each program (dist/<name>.cjs for COMMONJS's); src/environments/threads/spawn-worker.ts and
 * src/environments/discovery-process/spawn-scan-process.ts find theirs by these names.
 */
export const ENTRIES = {
  cli: "src/cli.ts",
  // What exec's client loads from the command's chunks when it needs them (the settings, the supervisor's starter).
  "exec-loaders": "src/cli/exec-loaders.ts",
};
/**
 * Programs built as one file each, with everything they use and nothing else (no shared chunks): work whose time goes
 * largely to loading code: the bot's discovery process here, the parse helper and the one-shot commands in COMMONJS.
 * Shared chunks hold what their other users need too: zod's core as the full build uses it was 307 KB of the scan's
 * code, against 64 KB of the mini build alone.
 */
export const STANDALONE = {
  "scan-process": "src/environments/discovery-process/scan-process.ts",
};

/**
 * Built as CommonJS files, dist/<name>.cjs, one file each like STANDALONE's: a process or thread that loads only
 * CommonJS never starts Node's ES module loader, about 10 ms of every command and of every parse helper's start.
 * bin/rl-chatops.js (itself CommonJS, bin/package.json) requires the command a command line's verb names (cli.ts
 * requires them too); scan's is in two parts, the second (the settings and the scanners) loaded while its parse
 * helpers start (src/cli/load-program.ts). What exec imports at run time by a URL (its settings loader,
 * dist/exec-loaders.js) stays an ES module of the split build.
 */
export const COMMONJS = {
  "parse-worker": "src/environments/threads/parse-worker.ts",
  "scan-command": "src/scan-command.ts",
  "scan-folder": "src/scan-folder.ts",
  "exec-command": "src/cli/exec-command.ts",
};

/**
 * Programs the build makes a V8 code cache for (src/cli/code-cache.ts: dist/<name>.cjs.v8-cache), each with the command
 * line that loads it and runs most of its code: the build runs `node bin/rl-chatops.js ...` once, in a process that
 * writes the cache as it exits.
 * scan-folder is 470 KB (zod, yaml, the scanners), most of it compiled by every scan.
 */
export const CODE_CACHED = {
  "scan-folder": ["scan", path.join(ROOT, "examples", "demo-stack", "tinker_atropos", "environments"), "--json"],
};

/**
 * Packages loaded from node_modules at run time: native addons, the platform SDKs (large, loaded only by the bot that
 * uses them) and node-cron (required lazily). The rest (zod, yaml, execa: many small modules each) is bundled, so a
 * command reads a few files instead of a few hundred.
 */
export const EXTERNAL = [
  "better-sqlite3",
  "tree-sitter",
  "tree-sitter-python",
  "@resvg/resvg-js",
  "@slack/bolt",
  "discord.js",
  "node-cron",
  // The MCP SDK, only for `rl-chatops mcp` (ajv, hono and the transports: loaded from node_modules when it runs).
  "@modelcontextprotocol/sdk",
  "esbuild",
  "tsx",
];
/**
 * zod re-exports every one of its 60-odd message locales as `z.locales`, which no bundler can leave out (about 370 KB,
 * half of zod's code, compiled by every command). The bot's messages are English: its bundle gets zod's English locale
 * only, which zod itself installs as the default.
 */
const englishZodLocales = {
  name: "english-zod-locales",
  setup(build) {
    build.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: path.join(path.dirname(args.importer), "../locales/en.js"), namespace: "zod-locales" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};
/** CommonJS code bundled into ES modules still calls require() for Node's own modules. */
const REQUIRE_SHIM =
  'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);';
/** The sources' import.meta.url, in a CommonJS file: its own file URL. */
const IMPORT_META_URL_SHIM = 'const __importMetaUrl = require("node:url").pathToFileURL(__filename).href;';

/** Writes `contents` to `file` unless it already holds exactly that; whole files only (rename), never half of one. */
function writeIfChanged(file, contents) {
  if (existsSync(file) && readFileSync(file).equals(contents)) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, contents);
  renameSync(temp, file);
  return true;
}

/**
 * Makes the code cache of each CODE_CACHED program that has none newer than the program. A cache is an optimisation:
 * when the command fails here (say, the parser's native addon is missing), the build goes on without it, saying so.
 */
async function makeCodeCaches() {
  const { execa } = await import("execa");
  const made = [];
  for (const [name, args] of Object.entries(CODE_CACHED)) {
    const program = path.join(DIST, `${name}.cjs`);
    const cache = `${program}.v8-cache`;
    if (existsSync(cache) && statSync(cache).mtimeMs >= statSync(program).mtimeMs) continue;
    try {
      // With no Node flag, as docs/command-line.md runs the one-shot commands: V8 takes a cache only under the flags it was made
      // with.
      await execa(process.execPath, [path.join(ROOT, "bin", "rl-chatops.js"), ...args], {
        // Not the checkout's root: a .env there (say, RL_STACK=tinker-cookbook) is no setting of this run.
        cwd: DIST,
        // src/cli/code-cache.ts, WRITE_CODE_CACHE.
        env: { PATH: process.env.PATH, HOME: process.env.HOME, RL_BUILD_WRITE_CODE_CACHE: "1" },
        extendEnv: false,
        stdin: "ignore",
        stdout: "ignore",
      });
      made.push(`${name}'s code cache made`);
    } catch (err) {
      made.push(
        `no code cache for ${name}: ${
          String(err.stderr || err.message)
            .trim()
            .split("\n")[0]
        }`,
      );
    }
  }
  return made.join(", ");
}

/**
 * Builds dist/ from the sources. Files whose content did not change are left alone, so a build while the bot runs
 * (or two at once) changes nothing a running process still reads; chunks no entry uses any more are removed.
 */
export async function buildDist({ quiet = false } = {}) {
  const started = performance.now();
  const { build } = await import("esbuild");
  const common = {
    absWorkingDir: ROOT,
    outdir: DIST,
    entryNames: "[name]",
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: EXTERNAL,
    banner: { js: REQUIRE_SHIM },
    plugins: [englishZodLocales],
    sourcemap: "linked",
    write: false,
    logLevel: "error",
  };
  const entryPoints = (entries) =>
    Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(ROOT, file)]));
  const results = await Promise.all([
    build({ ...common, entryPoints: entryPoints(ENTRIES), chunkNames: "chunks/[name]-[hash]", splitting: true }),
    // execa is loaded only to ask the training Python where atroposlib is, which a one-shot scan never does.
    build({ ...common, entryPoints: entryPoints(STANDALONE), external: [...EXTERNAL, "execa"] }),
    build({
      ...common,
      entryPoints: entryPoints(COMMONJS),
      format: "cjs",
      outExtension: { ".js": ".cjs" },
      banner: { js: IMPORT_META_URL_SHIM },
      define: { "import.meta.url": "__importMetaUrl" },
      external: [...EXTERNAL, "execa"],
    }),
  ]);
  let changed = 0;
  const written = new Set();
  for (const file of results.flatMap((result) => result.outputFiles)) {
    written.add(file.path);
    if (writeIfChanged(file.path, Buffer.from(file.contents))) changed += 1;
  }
  // What an earlier build wrote and this one did not (a chunk, or a program since built under another name) goes.
  const chunks = path.join(DIST, "chunks");
  const built = (dir) =>
    (existsSync(dir) ? readdirSync(dir) : [])
      .filter((name) => /\.(c?js|map)$/.test(name))
      .map((n) => path.join(dir, n));
  for (const file of [...built(chunks), ...built(DIST)]) {
    // Another build's file on its way in is not stale (it ends in .tmp until renamed).
    if (!written.has(file)) rmSync(file, { force: true });
  }
  const caches = new Set(Object.keys(CODE_CACHED).map((name) => path.join(DIST, `${name}.cjs.v8-cache`)));
  for (const name of existsSync(DIST) ? readdirSync(DIST) : []) {
    const file = path.join(DIST, name);
    if (name.endsWith(".v8-cache") && !caches.has(file)) rmSync(file, { force: true });
  }
  const cached = await makeCodeCaches();
  if (!quiet)
    process.stdout.write(
      `rl-chatops: built dist/ (${changed} of ${written.size} files changed${cached ? `, ${cached}` : ""}) in ${Math.round(performance.now() - started)} ms\n`,
    );
  return { changed, files: written.size };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    await buildDist({ quiet: process.argv.includes("--quiet") });
  } catch (err) {
    process.stderr.write(`rl-chatops: the build failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
