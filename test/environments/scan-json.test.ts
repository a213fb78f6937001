// toScanJson: the exact snake_case shape `rl-chatops scan DIR --json` prints.
import { describe, expect, it } from "vitest";
import { toScanJson } from "../../src/environments/scan-json.ts";
import type { ScanResult } from "../../src/environments/types.ts";

const RESULT: ScanResult = {
  environments: [
    {
      name: "gsm8k",
      className: "GSM8kEnv",
      filePath: "/envs/gsm8k_env.py",
      relativePath: "gsm8k_env.py",
      description: "Math word problems",
      configClass: "BaseEnvConfig",
      runnable: true,
      fields: [
        {
          name: "group_size",
          type: "int",
          fieldType: { kind: "int" },
          default: 8,
          description: "Group",
          locked: false,
          min: 1,
        },
        {
          name: "total_steps",
          type: "int",
          fieldType: { kind: "int" },
          default: undefined,
          description: "Steps",
          locked: true,
          lockedValue: 2500,
        },
        {
          name: "wandb_name",
          type: "str | None",
          fieldType: { kind: "optional", inner: { kind: "str" } },
          default: null,
          description: "",
          locked: false,
        },
      ],
    },
    {
      name: "helper",
      className: "HelperEnv",
      filePath: "/envs/helper_env.py",
      relativePath: "helper_env.py",
      description: "A base for others",
      configClass: "BaseEnvConfig",
      runnable: false,
      notRunnableReason: "helper_env.py has no main block",
      fields: [],
    },
  ],
  warnings: [{ filePath: "/envs/broken.py", message: "Python syntax error near line 3; file skipped" }],
};

describe("toScanJson", () => {
  it("gives exactly the documented keys, in snake_case, with null for unknown defaults", () => {
    expect(JSON.parse(JSON.stringify(toScanJson(RESULT)))).toEqual({
      environments: [
        {
          name: "gsm8k",
          class_name: "GSM8kEnv",
          file_path: "/envs/gsm8k_env.py",
          relative_path: "gsm8k_env.py",
          description: "Math word problems",
          config_class: "BaseEnvConfig",
          runnable: true,
          fields: [
            { name: "group_size", type: "int", default: 8, description: "Group", locked: false },
            { name: "total_steps", type: "int", default: null, description: "Steps", locked: true },
            { name: "wandb_name", type: "str | None", default: null, description: "", locked: false },
          ],
        },
        {
          name: "helper",
          class_name: "HelperEnv",
          file_path: "/envs/helper_env.py",
          relative_path: "helper_env.py",
          description: "A base for others",
          config_class: "BaseEnvConfig",
          runnable: false,
          reason: "helper_env.py has no main block",
          fields: [],
        },
      ],
      warnings: [{ file_path: "/envs/broken.py", message: "Python syntax error near line 3; file skipped" }],
    });
  });

  it("keeps the default key even when it is unknown, so consumers can rely on it", () => {
    const field = toScanJson(RESULT).environments[0]?.fields[1];
    expect(field && Object.keys(field)).toEqual(["name", "type", "default", "description", "locked"]);
    expect(field?.default).toBeNull();
  });
});
