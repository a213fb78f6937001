// Nothing a person types runs in a shell: the source spawns with argv arrays only (execa without shell), and never builds a command string.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config.ts";

/** The bot's own code, plus the demo stack and the tinker-cookbook miniature it spawns. */
const ROOTS = ["src", "commands", "adapters", "db", "bin", "examples/demo-stack", "examples/tinker-cookbook"];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) sourceFiles(file, out);
    else if (/\.(ts|js|mjs|py|sh)$/.test(name)) out.push(file);
  }
  return out;
}

const files = ROOTS.flatMap((root) => sourceFiles(path.join(PACKAGE_ROOT, root)));
const read = (file: string) => readFileSync(file, "utf8");
const rel = (file: string) => path.relative(PACKAGE_ROOT, file);

/** [pattern, why it is refused] for TypeScript and JavaScript. */
const TS_RULES: Array<[RegExp, string]> = [
  [/\bshell\s*:\s*(true|["'`])/, "shell: true (or a shell path) hands the command line to a shell"],
  [/\b(exec|execSync)\s*\(\s*`/, "exec of a template string runs a command line"],
  [/\bexeca(Command|CommandSync|Sync)?\s*\(\s*`/, "a command line built as a template string"],
  [/\bexecaCommand(Sync)?\s*\(/, "execaCommand parses a command string"],
  [/\$\s*`/, "execa's $`...` runs a template as a command line"],
  [/\b(spawn|spawnSync|execFile|execFileSync)\s*\([^)]*\bshell\s*:/, "spawn with a shell option"],
  [/from\s+["'](node:)?child_process["']/, "child_process directly, instead of execa with argv arrays"],
];

/**
 * Files that may import child_process, each with why: the one spawn there takes an argv array (checked below), and
 * execa cannot do what it needs.
 */
const CHILD_PROCESS_ALLOWED: Record<string, string> = {
  [path.join("src", "cli", "start-supervisor.ts")]:
    "the detached background supervisor gets its log file as a file descriptor, which execa's types refuse",
  [path.join("src", "environments", "discovery-process", "spawn-scan-process.ts")]:
    "the discovery process's IPC channel may keep the bot alive only while a scan is owed; execa's IPC holds it referenced for as long as the process runs",
};

/** Python: the demo stack's processes. */
const PY_RULES: Array<[RegExp, string]> = [
  [/shell\s*=\s*True/, "subprocess with shell=True"],
  [/\bos\.(system|popen)\s*\(/, "os.system / os.popen run a shell"],
];

describe("no shell anywhere", () => {
  it("finds the files it checks", () => {
    expect(files.some((f) => f.endsWith(path.join("training", "local-supervisor.ts")))).toBe(true);
    expect(files.length).toBeGreaterThan(50);
  });

  it("has rules that catch what they are meant to", () => {
    const bad = [
      'execa("sh", ["-c", text], { shell: true })',
      "exec(`python ${file}`)",
      "await execa(`python ${file}`)",
      "execaCommand(line)",
      "await $`python ${file}`",
      'spawn(cmd, args, { shell: "/bin/sh" })',
      'import { exec } from "node:child_process";',
    ];
    for (const line of bad)
      expect(
        TS_RULES.some(([pattern]) => pattern.test(line)),
        line,
      ).toBe(true);
    for (const line of ["subprocess.run(cmd, shell=True)", "os.system(cmd)"])
      expect(
        PY_RULES.some(([pattern]) => pattern.test(line)),
        line,
      ).toBe(true);
    for (const line of [
      "execa(plan.command, plan.args, { env })",
      "const m = /x/.exec(text);",
      "async function exec(flags: Flags) {",
    ]) {
      expect(
        TS_RULES.some(([pattern]) => pattern.test(line)),
        line,
      ).toBe(false);
    }
  });

  it("never spawns through a shell or from a command string", () => {
    const found: string[] = [];
    for (const file of files) {
      const text = read(file);
      const rules = file.endsWith(".py") ? PY_RULES : file.endsWith(".sh") ? [] : TS_RULES;
      text.split("\n").forEach((line, i) => {
        // Regex .exec() is not a process.
        const code = line.replace(/\/[^/\n]+\/[a-z]*\.exec\(/g, "").replace(/\)\.exec\(|\b\w+\.exec\(/g, "");
        for (const [pattern, why] of rules) {
          if (!pattern.test(code)) continue;
          if (why.startsWith("child_process") && CHILD_PROCESS_ALLOWED[rel(file)]) continue;
          found.push(`${rel(file)}:${i + 1}: ${why}: ${line.trim()}`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  it("lets child_process in only where a spawn with an argv array needs it", () => {
    for (const file of Object.keys(CHILD_PROCESS_ALLOWED)) {
      const text = read(path.join(PACKAGE_ROOT, file));
      expect(text, file).toMatch(/import \{ spawn \} from "node:child_process";/);
      // One spawn, its arguments an array literal: the program, then [ ... ].
      expect(text.match(/\bspawn\(/g), file).toHaveLength(1);
      expect(text, file).toMatch(/\bspawn\(\s*process\.execPath,\s*\[/);
    }
  });

  it("gives every execa call an argument array, never one string to split", () => {
    const calls: string[] = [];
    for (const file of files.filter((f) => /\.(ts|js)$/.test(f))) {
      const text = read(file);
      for (const match of text.matchAll(/\bexeca\s*\(([^,)]*)(,|\))/g)) {
        // execa(file, args, options): a lone argument would be a whole command line.
        if (match[2] !== ",") calls.push(`${rel(file)}: execa(${match[1]})`);
      }
    }
    expect(calls).toEqual([]);
    expect(
      files
        .filter((f) => /\bexeca\s*\(/.test(read(f)))
        .map(rel)
        .sort(),
    ).toEqual(expect.arrayContaining([path.join("src", "training", "local-supervisor.ts")]));
  });
});
