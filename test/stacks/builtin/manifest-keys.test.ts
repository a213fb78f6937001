// The manifest keys the built-in stacks added: each refused with the key and what it accepts when wrong, and what it
// does to the command line (kebab-cased flags, a resumed fork's fields dropped) and to entry names.
/* eslint-disable @typescript-eslint/no-explicit-any -- the table below edits a manifest as the plain YAML object it is */
import { describe, expect, it } from "vitest";
import { refusalOf as refusalManifest } from "../../helpers/manifest-refusal.ts";
import { manifestArgv } from "../../../src/stacks/manifest/manifest-argv.ts";
import { parseManifest } from "../../../src/stacks/manifest/load-manifest.ts";
import { entryNameOf } from "../../../src/stacks/manifest/manifest-scanner.ts";

const GOOD = {
  name: "toy",
  entries: { glob: "configs/*/rl.toml", fields: "pydantic", class: "pkg.config.TrainConfig", name: "folder" },
  run: {
    command: ["{python}", "-m", "pkg.train", "@", "{entry}", "{overrides}"],
    override: "--{key} {value}",
    key_case: "kebab",
    set: { output_dir: "{run_dir}" },
  },
  progress: { metrics: "{run_dir}/metrics.jsonl", step: "step", total_steps: "max_steps" },
  checkpoints: { glob: "{run_dir}/ckpt/step_*", step: "step_(\\d+)$", latest: "{run_dir}/ckpt/latest.txt" },
  resume: { set: { "resume.step": "{step}" } },
  fork: { set: { "resume.dir": "{checkpoint}" } },
};

const refusalOf = (edit: (m: Record<string, any>) => void) => refusalManifest(GOOD, edit);

describe("the built-in stacks' manifest keys", () => {
  it.each([
    [
      "an entry naming rule it does not know",
      (m: any) => (m.entries.name = "dir"),
      /entries\.name: must be one of "file", "folder"/,
    ],
    [
      "a key case it does not know",
      (m: any) => (m.run.key_case = "camel"),
      /run\.key_case: must be one of "as_written", "kebab"/,
    ],
    [
      "a class reader without its class",
      (m: any) => delete m.entries.class,
      /entries\.class: is required with the pydantic reader/,
    ],
    [
      "a class that is not a dotted name",
      (m: any) => (m.entries.class = "TrainConfig"),
      /entries\.class: .*dotted module path/,
    ],
    [
      "a class for a YAML reader",
      (m: any) => (m.entries.fields = "yaml"),
      /only the dataclass and pydantic readers read classes/,
    ],
    [
      "an empty python_path",
      (m: any) => (m.entries.python_path = []),
      /entries\.python_path: must name at least one folder/,
    ],
    [
      "a run placeholder in checkpoints.latest",
      (m: any) => (m.checkpoints.latest = "{python}"),
      /checkpoints\.latest: \{python\} cannot be used here/,
    ],
  ])("refuses %s, naming the key", (_what, edit, message) => {
    expect(refusalOf(edit)).toMatch(message);
  });

  it("writes kebab-cased flags, and a resumed fork continues from its own checkpoint without the fork's fields", () => {
    const manifest = parseManifest(structuredClone(GOOD), "stack.yaml");
    const vars = { python: "python3", entry: "/e/rl.toml", run_dir: "/r", checkpoint: "/r/ckpt/step_4", step: "4" };
    const values = { max_steps: 6, "trainer.optim.lr": 0.5, "resume.dir": "/p/ckpt/step_2" };
    expect(manifestArgv(manifest, vars, values, false).args).toEqual([
      ..."-m pkg.train @ /e/rl.toml".split(" "),
      ...["--max-steps", "6", "--trainer.optim.lr", "0.5", "--resume.dir", "/p/ckpt/step_2", "--output-dir", "/r"],
    ]);
    expect(manifestArgv(manifest, vars, values, true).args.slice(4)).toEqual([
      "--max-steps",
      "6",
      "--trainer.optim.lr",
      "0.5",
      "--output-dir",
      "/r",
      "--resume.step",
      "4",
    ]);
  });

  it("names an entry by its file or by its folder", () => {
    expect(entryNameOf("/root/configs/toy/rl.toml")).toBe("rl");
    expect(entryNameOf("/root/configs/toy/rl.toml", "folder")).toBe("toy");
  });
});
