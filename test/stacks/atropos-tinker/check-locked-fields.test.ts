// Locked fields are checked against atroposlib's real classes: no `weight` under openai:, unknown keys said at start.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { Logger } from "../../../src/log.ts";
import { SEED_LOCKED_FIELDS, loadLockedFields } from "../../../src/locked-fields.ts";
import type { Services } from "../../../src/services.ts";
import {
  API_SERVER_CONFIG_FIELDS,
  describeUnknownLockedKeys,
} from "../../../src/stacks/atropos-tinker/check-locked-fields.ts";
import { tempDir, testServices } from "../../helpers/test-services.ts";

const DEMO = fileURLToPath(new URL("../../../examples/demo-stack/", import.meta.url));

let services: Services | undefined;
afterEach(async () => {
  await services?.close();
  services = undefined;
});

describe("locked fields against the real classes", () => {
  it("the seed's and the demo's locked fields have only keys the real classes keep (no weight under openai:)", () => {
    expect(SEED_LOCKED_FIELDS.openai[0]).not.toHaveProperty("weight");
    expect(describeUnknownLockedKeys(SEED_LOCKED_FIELDS)).toEqual([]);
    const demo = loadLockedFields(path.join(DEMO, "locked-fields.yaml"));
    expect(demo.openai[0]).not.toHaveProperty("weight");
    expect(describeUnknownLockedKeys(demo)).toEqual([]);
  });

  it("the bot's APIServerConfig list is the miniature's, which its own test checks against the real class", () => {
    const fields = execFileSync(
      "python3",
      [
        "-c",
        "import json; from atroposlib.envs.server_handling.server_manager import APIServerConfig as C; print(json.dumps(list(C.model_fields)))",
      ],
      { cwd: DEMO, env: { ...process.env, PYTHONPATH: DEMO }, encoding: "utf8" },
    );
    expect([...(JSON.parse(fields) as string[])].sort()).toEqual([...API_SERVER_CONFIG_FIELDS].sort());
  });

  it("says at start where an unknown key goes and what the real class does with it", () => {
    const file = path.join(tempDir(), "locked.yaml");
    writeFileSync(
      file,
      "env:\n  total_steps: 20\n  my_setting: 3\nopenai:\n  - model_name: m\n    base_url: http://127.0.0.1:8001/v1\n    weight: 1.0\n",
    );
    const notes = describeUnknownLockedKeys(loadLockedFields(file));
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/openai\[0\]\.weight, which is not a field of atroposlib's APIServerConfig/);
    expect(notes[0]).toMatch(/written to each run YAML under openai:.*drops it, so it has no effect/);
    expect(notes[1]).toMatch(/env\.my_setting, which is not a field of atroposlib's BaseEnvConfig/);
    expect(notes[1]).toMatch(/only an environment whose config class defines my_setting uses it/);

    const warnings: string[] = [];
    const log: Logger = { debug: () => {}, info: () => {}, error: () => {}, warn: (m) => warnings.push(m) };
    services = testServices({ RL_LOCKED_FIELDS: file }, { log });
    expect(warnings).toEqual(notes);
  });
});
