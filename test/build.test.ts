// The build in dist/ (bin/build.mjs, run before the tests by test/helpers/build-dist.ts): one file per program, and the
// built code finds the package's non-TypeScript files (demo stack, Slurm job launcher) where the sources do.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { botNodeFlags } from "../bin/bot-node-flags.mjs";
import { buildDist, COMMONJS, DIST, ENTRIES, STANDALONE } from "../bin/build.mjs";
import { PACKAGE_ROOT } from "../src/config.ts";
import { JOB_LAUNCHER } from "../src/training/backends/slurm/job-spec.ts";

describe("dist/", () => {
  it("holds the command, the scan and exec commands and both discovery workers, under the names they are started by", () => {
    const programs = [...Object.keys(ENTRIES), ...Object.keys(STANDALONE), ...Object.keys(COMMONJS)];
    expect(programs.sort()).toEqual([
      "cli",
      "exec-command",
      "exec-loaders",
      "parse-worker",
      "scan-command",
      "scan-folder",
      "scan-process",
    ]);
    for (const name of [...Object.keys(ENTRIES), ...Object.keys(STANDALONE)])
      expect(existsSync(path.join(DIST, `${name}.js`))).toBe(true);
    for (const name of Object.keys(COMMONJS)) expect(existsSync(path.join(DIST, `${name}.cjs`))).toBe(true);
    // The one-file programs share no chunk: each holds what it uses.
    for (const name of Object.keys(STANDALONE))
      expect(readFileSync(path.join(DIST, `${name}.js`), "utf8")).not.toMatch(/from "\.\/chunks\//);
    for (const name of Object.keys(COMMONJS)) {
      const code = readFileSync(path.join(DIST, `${name}.cjs`), "utf8");
      expect(code).not.toMatch(/require\("\.\/chunks\//);
      // CommonJS through and through: an ES module's syntax would not load.
      expect(code).not.toMatch(/^(import|export) /m);
    }
    // exec is a thin client: the settings (zod, yaml) come from the command's own chunks, and only when needed.
    const exec = readFileSync(path.join(DIST, "exec-command.cjs"), "utf8");
    expect(exec).not.toContain("node_modules/zod/");
    expect(exec).not.toContain("node_modules/yaml/");
    // scan's program holds only what starts its parse helpers: the settings and the scanners are scan-folder's, which
    // it loads while the helpers start.
    const scan = readFileSync(path.join(DIST, "scan-command.cjs"), "utf8");
    for (const later of ["node_modules/zod/", "node_modules/yaml/", "src/environments/scanner.ts", "src/config.ts"])
      expect(scan).not.toContain(later);
    expect(scan).toContain("src/environments/threads/parse-pool.ts");
    expect(readFileSync(path.join(DIST, "scan-folder.cjs"), "utf8")).toContain("src/environments/scanner.ts");
  });

  it("removes what an earlier build wrote and this one does not, and keeps another build's file on its way in", async () => {
    const stale = path.join(DIST, "renamed-program.js");
    const incoming = path.join(DIST, `cli.js.${process.pid}.tmp`);
    writeFileSync(stale, "// a program an earlier build wrote\n");
    writeFileSync(incoming, "// being written\n");
    try {
      await buildDist({ quiet: true });
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(incoming)).toBe(true);
      expect(existsSync(path.join(DIST, "cli.js"))).toBe(true);
    } finally {
      rmSync(incoming, { force: true });
    }
  });

  it("finds the package root, and from it the demo stack and the Slurm job launcher, as the sources do", async () => {
    // cli.js imports config.ts lazily, so it is a chunk of its own.
    const chunk = readdirSync(path.join(DIST, "chunks")).find((name) => /^config-[A-Z0-9]+\.js$/.test(name));
    expect(chunk).toBeDefined();
    const built = (await import(pathToFileURL(path.join(DIST, "chunks", chunk!)).href)) as {
      PACKAGE_ROOT: string;
      DEMO_STACK_ROOT: string;
    };
    expect(built.PACKAGE_ROOT).toBe(PACKAGE_ROOT);
    expect(existsSync(path.join(built.DEMO_STACK_ROOT, "tinker_atropos", "environments"))).toBe(true);
    expect(JOB_LAUNCHER.startsWith(PACKAGE_ROOT)).toBe(true);
    expect(existsSync(JOB_LAUNCHER)).toBe(true);
  });

  it("carries zod's English messages and none of its other locales", async () => {
    const chunks = readdirSync(path.join(DIST, "chunks")).filter((name) => name.endsWith(".js"));
    const zodChunks = chunks.filter((name) =>
      readFileSync(path.join(DIST, "chunks", name), "utf8").includes("node_modules/zod/"),
    );
    expect(zodChunks.length).toBeGreaterThan(0);
    const codes = zodChunks.map((name) => readFileSync(path.join(DIST, "chunks", name), "utf8"));
    // zod's code is split between its core, its mini build and its full build: one of them holds the English messages.
    expect(codes.filter((code) => code.includes("node_modules/zod/v4/locales/en.js"))).toHaveLength(1);
    for (const code of codes) expect(code).not.toContain("node_modules/zod/v4/locales/fr.js");
    // The scan command carries its own copy of the mini build (in the part it loads once its helpers are starting),
    // with the same English messages.
    const scanCommand = readFileSync(path.join(DIST, "scan-folder.cjs"), "utf8");
    expect(scanCommand).toContain("node_modules/zod/v4/locales/en.js");
    expect(scanCommand).not.toContain("node_modules/zod/v4/locales/fr.js");
    // A setting zod checks with its own message: the built command still says it in English.
    const run = promisify(execFile)(process.execPath, [path.join(DIST, "..", "bin", "rl-chatops.js"), "scan", "."], {
      env: { ...process.env, RL_BACKEND: "bogus" },
    });
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('RL_BACKEND has a bad value: Invalid option: expected one of "local"|"slurm"'),
    });
  });
});

describe("the bot's Node flags", () => {
  it("are the same for the rl-chatops command and npm start, and the bench's in-process bot starts with them", () => {
    const flags = botNodeFlags();
    expect(flags).toEqual([expect.stringMatching(/^--max-semi-space-size=\d+$/)]);
    const scripts = (
      JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.start).toBe(`node ${flags.join(" ")} bin/rl-chatops.js`);
    // The bench re-starts itself with the flags it lacks: `npm run bench` needs none of its own.
    expect(scripts.bench).toBe("node bin/bench.mjs");
    expect(readFileSync(path.join(PACKAGE_ROOT, "bin", "bench.mjs"), "utf8")).toContain("botNodeFlags()");
  });
});
