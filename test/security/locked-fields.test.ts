// Locked fields stay locked on every route: nested keys, aliases, unicode lookalikes, YAML in values, and the LLM's JSON arguments.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { dispatch } from "../../commands/dispatch.ts";
import { SEED_LOCKED_FIELDS } from "../../src/locked-fields.ts";
import { buildRunConfig, writeRunConfig, type RunConfig } from "../../src/stacks/atropos-tinker/run-config.ts";
import { tempDir } from "../helpers/test-services.ts";
import { POLICY_ENV, SLACK, USERS, startKit, type Kit } from "./security-kit.ts";

let kit: Kit;
beforeAll(async () => {
  kit = startKit({ env: POLICY_ENV });
  const selected = await dispatch({ text: "/rl select probe" }, kit.ctx(USERS.operator));
  expect(selected.ok).toBe(true);
});
afterAll(() => kit.close());

const op = () => kit.ctx(USERS.operator);
const values = () => kit.services.channels.configValues(SLACK, "probe");

/** Ways to name a locked field (or an infrastructure section) that must never change it. */
const HOSTILE_NAMES = [
  "total_steps",
  "Total_Steps",
  "TOTAL-STEPS",
  "total-steps",
  " total_steps ",
  "total steps",
  "total\u2010steps",
  "total_steps\n",
  "\ttotal_steps",
  "env.total_steps",
  "ENV.Total-Steps",
  "env:total_steps",
  "env . total_steps",
  "env.env.total_steps",
  "env[total_steps]",
  "env/total_steps",
  "tinker.lora_rank",
  "tinker.learning_rate",
  "openai.0.base_url",
  "openai[0].base_url",
  "openai:api_key",
  "slurm",
  "testing",
  "tinker",
  "openai",
  "env",
  "ｔｏｔａｌ＿ｓｔｅｐｓ",
  "ｅｎｖ．ｔｏｔａｌ＿ｓｔｅｐｓ",
  "t\u043etal_steps",
  "total_step\u0455",
  "total\u200b_steps",
  "\u202etotal_steps",
  "total_steps\u0000",
  "rollout_server_url",
  "ROLLOUT-SERVER-URL",
  "env.rollout_server_url",
  "rollout\u00adserver_url",
  "__proto__",
  "constructor",
  "env.__proto__",
  "total_steps\nlabel",
];

describe("locked fields", () => {
  it.each(HOSTILE_NAMES.map((name) => [JSON.stringify(name), name]))(
    "refuses %s typed, as JSON, and for reset",
    async (_shown, name) => {
      const results = [
        await dispatch({ text: `/rl set "${name}" 5` }, op()),
        await dispatch(
          { name: "rl_edit_config", args: { field: name, value: "5" } },
          kit.ctx(USERS.operator, { via: "chat" }),
        ),
        await dispatch({ name: "set", args: { field: name, value: "http://evil.example" } }, op()),
        await dispatch({ text: `/rl reset "${name}"` }, op()),
      ];
      for (const r of results) {
        expect(r.ok, JSON.stringify(r.reply)).toBe(false);
        expect(["LOCKED_FIELD", "NOT_FOUND", "USAGE"]).toContain(r.reply.error?.code);
        // Invisible characters are shown escaped, never echoed raw.
        expect(["\u0000", "\u200b", "\u202e"].some((c) => (r.reply.text ?? "").includes(c))).toBe(false);
      }
      expect(Object.keys(values())).toEqual([]);
    },
  );

  it("says why: locked with its value, an infrastructure section, or an unknown field", async () => {
    const locked = await dispatch({ text: "/rl set Total-Steps 5" }, op());
    expect(locked.reply.error).toMatchObject({
      code: "LOCKED_FIELD",
      details: { field: "total_steps", locked_value: 2500 },
    });
    expect(locked.reply.text).toBe(
      "total_steps is locked to 2500 by the infrastructure settings and cannot be changed.",
    );
    const section = await dispatch({ text: "/rl set openai.base_url http://x" }, op());
    expect(section.reply.error?.code).toBe("LOCKED_FIELD");
    expect(section.reply.text).toContain("belongs to the openai section");
    const trainer = await dispatch({ text: "/rl set tinker.lora_rank 64" }, op());
    expect(trainer.reply.error).toMatchObject({
      code: "LOCKED_FIELD",
      details: { field: "tinker.lora_rank", locked_value: 32 },
    });
    expect(trainer.reply.text).toContain("removing lora_rank from the tinker: section of the locked fields file");
    const lookalike = await dispatch({ text: "/rl set t\u043etal_steps 5" }, op());
    expect(lookalike.reply.error?.code).toBe("NOT_FOUND");
    expect(lookalike.reply.text).toContain('probe has no config field "t\u043etal_steps".');
    const hidden = await dispatch(
      { name: "rl_edit_config", args: { field: "\u202etotal_steps\u200b", value: "5" } },
      op(),
    );
    expect(hidden.reply.error?.code).toBe("LOCKED_FIELD");
    const nested = await dispatch({ text: "/rl set label.sub 5" }, op());
    expect(nested.reply.text).toContain("nested keys cannot be set");
  });

  it("ignores extra JSON arguments the model adds; only the named field changes", async () => {
    const r = await dispatch(
      {
        name: "rl_edit_config",
        args: {
          field: "count",
          value: "5",
          total_steps: 5,
          env: { total_steps: 5 },
          rollout_server_url: "http://evil",
        },
      },
      kit.ctx(USERS.operator, { via: "chat" }),
    );
    expect(r.ok).toBe(true);
    expect(values()).toEqual({ count: 5 });
    const typed = await dispatch({ name: "rl_edit_config", args: { field: "count", value: 6 } }, op());
    expect(typed.reply.error?.code).toBe("USAGE");
    await dispatch({ text: "/rl reset" }, op());
  });

  it("keeps YAML in values as data: the written run config has the locked values and nothing else changed", async () => {
    const hostile: Array<[string, string, unknown]> = [
      ["label", "8\nrollout_server_url: http://evil", "8\nrollout_server_url: http://evil"],
      ["note", "x\n---\nenv:\n  total_steps: 5\n...", "x\n---\nenv:\n  total_steps: 5\n..."],
      ["label", "{total_steps: 5}", "{total_steps: 5}"],
      ["anything", "{total_steps: 5}", "{total_steps: 5}"],
      ["anything", "!!python/object/apply:os.system ['echo evil']", "!!python/object/apply:os.system ['echo evil']"],
      ["tags", "a,total_steps: 5,*alias,&anchor x,- y", ["a", "total_steps: 5", "*alias", "&anchor x", "- y"]],
      [
        "extra",
        '{"total_steps": 5, "rollout_server_url": "http://evil", "<<": {"total_steps": 1}}',
        { total_steps: 5, rollout_server_url: "http://evil", "<<": { total_steps: 1 } },
      ],
      ["mode", "b", "b"],
    ];
    for (const [field, value] of hostile) {
      const r = await dispatch({ text: `/rl set ${field} ${value}` }, op());
      expect(r.ok, `${field}: ${JSON.stringify(r.reply)}`).toBe(true);
    }
    // Values that do not parse as their type are refused rather than stored as text.
    for (const [field, value] of [
      ["count", "8\nrollout_server_url: http://evil"],
      ["extra", "{total_steps: 5}"],
      ["flag", "yes\ntotal_steps: 5"],
      ["mode", "a\nb"],
    ] as const) {
      expect((await dispatch({ text: `/rl set ${field} ${value}` }, op())).reply.error?.code).toBe("INVALID_VALUE");
    }

    const stored = values();
    const config = buildRunConfig({
      runId: "abcd0001",
      environment: "probe",
      values: stored,
      locked: kit.services.lockedFields,
      wandbProject: "p",
    });
    const file = writeRunConfig(path.join(tempDir(), "run-configs"), "abcd0001", config, kit.services.config.secrets);
    const text = readFileSync(file, "utf8");
    expect(parseAllDocuments(text)).toHaveLength(1);
    const back = parseYaml(text) as RunConfig;
    for (const [key, locked] of Object.entries(SEED_LOCKED_FIELDS.env))
      expect([key, back.env[key]]).toEqual([key, locked]);
    expect(back.openai).toEqual(SEED_LOCKED_FIELDS.openai);
    expect(back.tinker).toMatchObject(SEED_LOCKED_FIELDS.tinker);
    expect([back.slurm, back.testing]).toEqual([false, false]);
    // Every value the person set comes back exactly as it was stored, as data under its own key.
    const latest = new Map(hostile.map(([field, , expected]) => [field, expected]));
    for (const [field, expected] of latest) expect([field, back.env[field]]).toEqual([field, expected]);
    expect(Object.keys(back).sort()).toEqual(["env", "openai", "slurm", "testing", "tinker"]);
  });
});
