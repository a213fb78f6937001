// A broken manifest is refused by `rl-chatops stack check` and at the bot's start, naming the key and what is
// accepted; a good one is shown as the command it would run. Nothing from a manifest runs through a shell.
/* eslint-disable @typescript-eslint/no-explicit-any -- the table below edits a manifest as the plain YAML object it is */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { refusalOf as refusalManifest } from "../../helpers/manifest-refusal.ts";
import { stringify } from "yaml";
import { closeDemoStacks, CONSOLE, nextEvent, type DemoStack } from "../../helpers/demo-stack.ts";
import { runCli } from "../../helpers/run-cli.ts";
import { tempDir } from "../../helpers/test-services.ts";
import { argvsOf, TOY_MANIFEST, TOY_ROOT } from "../../helpers/toy-trainer.ts";
import { startDemo } from "../../helpers/demo-stack.ts";
import { dispatchConfirmed } from "../../helpers/confirm.ts";

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

const GOOD = {
  name: "toy",
  entries: { glob: "configs/*.yaml", fields: "yaml" },
  run: { command: ["{python}", "train.py", "--config", "{entry}", "{overrides}"], set: { out_dir: "{run_dir}" } },
  progress: { metrics: "{run_dir}/log.jsonl", step: "iter", total_steps: "iters" },
};

const refusalOf = (edit: (m: Record<string, any>) => void) => refusalManifest(GOOD, edit);

describe("a stack manifest's checks", () => {
  it.each([
    ["a missing key", (m: any) => delete m.progress, /progress: is required/],
    ["a misspelt key", (m: any) => (m.run.comand = m.run.command), /run\.comand: not a manifest key/],
    [
      "an override form it does not know",
      (m: any) => (m.run.override = "{key}:{value}"),
      /run\.override: must be one of "\{key\}=\{value\}", "--\{key\}=\{value\}", "--\{key\} \{value\}"/,
    ],
    [
      "a reader it does not know",
      (m: any) => (m.entries.fields = "toml"),
      /entries\.fields: must be one of "yaml", "hydra"/,
    ],
    [
      "an unknown placeholder",
      (m: any) => (m.run.command[1] = "{script}"),
      /run\.command\.1: unknown placeholder \{script\} \(known: \{python\}/,
    ],
    [
      "{overrides} inside an element",
      (m: any) => (m.run.command[4] = "--x={overrides}"),
      /run\.command\.4: \{overrides\} must be an element of its own/,
    ],
    [
      "{checkpoint} where no checkpoint is known",
      (m: any) => (m.run.set.x = "{checkpoint}"),
      /run\.set\.x: \{checkpoint\} cannot be used here/,
    ],
    [
      "a step regex without a group",
      (m: any) => (m.checkpoints = { glob: "{run_dir}/s*", step: "s\\d+" }),
      /checkpoints\.step: needs a group/,
    ],
    [
      "a step regex that does not compile",
      (m: any) => (m.checkpoints = { glob: "{run_dir}/s*", step: "s(\\d+" }),
      /checkpoints\.step: not a regular expression/,
    ],
    [
      "a fork with no checkpoint field",
      (m: any) => (m.fork = { set: { init_from: "x" } }),
      /fork\.set: exactly one field must take "\{checkpoint\}"/,
    ],
    [
      "a resume with nowhere to resume from",
      (m: any) => (m.resume = { set: { resume: true } }),
      /resume: needs checkpoints/,
    ],
    [
      "a name with capitals",
      (m: any) => (m.name = "My Trainer"),
      /name: must be lower-case letters, digits and dashes/,
    ],
    ["an empty command", (m: any) => (m.run.command = []), /run\.command: must name at least the program/],
  ])("refuses %s, naming the key and what it accepts", (_what, edit, expected) => {
    const message = refusalOf(edit);
    expect(message).toMatch(expected);
    expect(message).toContain("rl-chatops stack check stack.yaml");
  });

  it("rl-chatops stack check prints what a run would start and exits 0; a broken file exits 1 with the key", async () => {
    const ok = await runCli(["stack", "check", TOY_MANIFEST, "--entry", "toy"], { cwd: tempDir() });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`is a valid stack manifest: stack "toy", 1 config in ${TOY_ROOT}`);
    expect(ok.stdout).toContain(
      `python3 train.py --config ${path.join(TOY_ROOT, "configs", "toy.yaml")} iters=12 "out_dir=<run dir>"`,
    );
    expect(ok.stdout).toMatch(/Resume: sets resume=true\nFork: sets init_from=\{checkpoint\}/);

    const dir = tempDir();
    const broken = path.join(dir, "stack.yaml");
    writeFileSync(broken, stringify({ ...GOOD, run: { ...GOOD.run, override: "{key}:{value}" } }));
    const bad = await runCli(["stack", "check", broken], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`The stack manifest ${broken} cannot be used:\n- run.override: must be one of`);
    // scan lists what /rl envs would, on the manifest's own reader.
    const scan = await runCli(["scan", TOY_ROOT], { cwd: dir, env: { RL_STACK: TOY_MANIFEST } });
    expect(scan.stdout).toBe(
      `toy  ${path.join(TOY_ROOT, "configs", "toy.yaml")}\n  Learn to answer c among four choices.\n  7 fields`,
    );
    const usage = await runCli(["stack", "lint", broken], { cwd: dir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("rl-chatops stack check ./stack.yaml");
  });

  it("refuses to start a bot on a broken manifest, naming the key, and on an RL_STACK that is neither a stack nor a file", async () => {
    const dir = tempDir();
    const broken = path.join(dir, "stack.yaml");
    writeFileSync(broken, stringify({ ...GOOD, progress: { ...GOOD.progress, step: "" } }));
    const refused = await runCli(["exec", "/rl envs"], { cwd: dir, env: { RL_STACK: broken } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("progress.step: must not be empty");
    const unknown = await runCli(["exec", "/rl envs"], { cwd: dir, env: { RL_STACK: "vrl" } });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /RL_STACK has a bad value: "vrl" is neither a built-in stack \(atropos-tinker, tinker-cookbook[^)]*\) nor a stack manifest file/,
    );
  });

  it("runs nothing through a shell: every manifest string with shell metacharacters reaches the trainer as one argv element", async () => {
    const dir = tempDir("rl-shell-");
    const trap = path.join(dir, "pwned");
    const hostile = `$(touch ${trap}); touch ${trap} | \`touch ${trap}\` && echo '*' "$HOME" > ${trap}`;
    mkdirSync(path.join(dir, "configs"), { recursive: true });
    writeFileSync(
      path.join(dir, "train.py"),
      `import runpy, sys\nsys.argv[0] = ${JSON.stringify(path.join(TOY_ROOT, "train.py"))}\nrunpy.run_path(sys.argv[0], run_name="__main__")\n`,
    );
    const manifest = {
      ...GOOD,
      run: {
        command: ["{python}", "train.py", "--config", "{entry}", "{overrides}"],
        set: { out_dir: "{run_dir}", note: hostile },
        env: { TOY_NOTE: hostile },
      },
      progress: { metrics: "{run_dir}/log.jsonl", step: "iter", total_steps: "iters" },
    };
    writeFileSync(path.join(dir, "stack.yaml"), stringify(manifest));
    // The toy trainer refuses keys its config lacks; this one is declared in the entry.
    writeFileSync(
      path.join(dir, "configs", "toy.yaml"),
      "iters: 2\nlr: 0.5\ngroup: 2\nsave_every: 1\npause: 0\nseed: 0\nseed_text: x\nnote: x\n",
    );
    const stack = await startDemo({
      cwd: dir,
      lockedFile: "",
      env: { RL_STACK: path.join(dir, "stack.yaml") },
      settleMs: 200,
    });
    stacks.push(stack);
    const { services } = stack;
    await services.env.selectEnvironment(CONSOLE, "toy");
    await services.env.editConfig(CONSOLE, "seed_text", `x; touch ${trap} $(touch ${trap})`);
    const done = nextEvent(services, "completed");
    const ctx = { channel: CONSOLE, user: { id: "alice", name: "alice" }, via: "console" as const, services };
    const started = await dispatchConfirmed({ text: "/rl start" }, ctx);
    const runId = (started.reply.data as { run_id: string }).run_id;
    expect((await done).run.id).toBe(runId);
    const [argv] = argvsOf(services, runId);
    expect(argv).toContain(`note=${hostile}`);
    expect(argv).toContain(`seed_text=x; touch ${trap} $(touch ${trap})`);
    expect(services.runs.get(runId)?.status).toBe("completed");
    expect(existsSync(trap)).toBe(false);
  });
});
