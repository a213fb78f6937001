// The Block Kit renderer: limits (blocks, sections, fields, buttons), escaping, links, code fences, charts, redaction.
import { describe, expect, it } from "vitest";
import { decodeButtonValue } from "../../adapters/slack/slack-button-value.ts";
import { splitText } from "../../adapters/slack/slack-mrkdwn.ts";
import { renderSlack, SLACK_LIMITS } from "../../adapters/slack/slack-render.ts";
import { createRedactor } from "../../src/redact.ts";
import { blockKitProblems } from "../fakes/slack-block-kit.ts";
import { buttonsOf, textOf } from "./slack-harness.ts";
import { bigReply } from "./test-commands.ts";

type AnyBlock = {
  type: string;
  text?: { text: string };
  fields?: Array<{ text: string }>;
  elements?: Array<{ text: unknown }>;
};

describe("renderSlack", () => {
  it("renders title, text, fields, links and buttons into valid Block Kit with a text fallback", () => {
    const message = renderSlack({
      title: "Run started",
      text: "Run ab12 is training <gsm8k> & friends.",
      fields: [{ label: "Environment", value: "gsm8k" }],
      links: [{ label: "WandB", url: "https://wandb.example/r/ab12" }],
      buttons: [{ kind: "command", label: "Stop", command: "/rl stop ab12", style: "danger" }],
    });
    expect(blockKitProblems(message.blocks)).toEqual([]);
    expect(message.text).toBe("Run started\nRun ab12 is training &lt;gsm8k&gt; &amp; friends.");
    const blocks = message.blocks as AnyBlock[];
    expect(blocks.map((b) => b.type)).toEqual(["header", "section", "section", "section", "actions"]);
    expect(blocks[0]?.text?.text).toBe("Run started");
    expect(blocks[1]?.text?.text).toBe("Run ab12 is training &lt;gsm8k&gt; &amp; friends.");
    expect(blocks[2]?.fields?.[0]?.text).toBe("*Environment*\ngsm8k");
    expect(blocks[3]?.text?.text).toBe("<https://wandb.example/r/ab12|WandB>");
    const [stop] = buttonsOf(message.blocks);
    expect(stop?.text.text).toBe("Stop");
    expect(decodeButtonValue(stop?.value)).toEqual({ kind: "run", command: "/rl stop ab12" });
  });

  it("keeps a reply with 100 fields, a 20,000-character code block and 40 buttons within every limit", () => {
    const message = renderSlack(bigReply());
    expect(blockKitProblems(message.blocks)).toEqual([]);
    const blocks = message.blocks as AnyBlock[];
    expect(blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
    for (const b of blocks) {
      if (b.type === "section" && b.text) expect(b.text.text.length).toBeLessThanOrEqual(3000);
      if (b.fields) expect(b.fields.length).toBeLessThanOrEqual(10);
      if (b.type === "actions") expect(b.elements?.length).toBeLessThanOrEqual(25);
    }
    expect((blocks[0]?.text?.text ?? "").length).toBeLessThanOrEqual(150);
    // All 40 buttons survive (two actions blocks), with unique ids; the body is cut and says so.
    const buttons = buttonsOf(message.blocks);
    expect(buttons).toHaveLength(40);
    expect(new Set(buttons.map((b) => b.action_id)).size).toBe(40);
    expect(textOf(message.blocks)).toMatch(/truncated|not shown/);
    expect(message.text.length).toBeGreaterThan(0);
    expect(message.text.length).toBeLessThanOrEqual(SLACK_LIMITS.fallbackText);
  });

  it("cuts the body at 50 blocks with a truncation note, keeping the header and the buttons", () => {
    const message = renderSlack({
      title: "Many parts",
      blocks: Array.from({ length: 80 }, (_, i) => ({ kind: "text" as const, content: `part ${i}` })),
      buttons: Array.from({ length: 30 }, (_, i) => ({ kind: "command", label: `b${i}`, command: `/rl echo ${i}` })),
    });
    const blocks = message.blocks as AnyBlock[];
    expect(blocks).toHaveLength(SLACK_LIMITS.blocks);
    expect(blocks[0]?.type).toBe("header");
    expect(blocks.slice(-2).map((b) => b.type)).toEqual(["actions", "actions"]);
    expect(textOf(blocks.at(-3))).toMatch(/^…truncated: \d+ more parts not shown$/);
    expect(buttonsOf(message.blocks)).toHaveLength(30);
    expect(blockKitProblems(message.blocks)).toEqual([]);
  });

  it("splits a long code block into fenced sections that fit, and keeps fences inside the content from closing it", () => {
    const content = Array.from({ length: 300 }, (_, i) => `line ${i} \`\`\` ${"y".repeat(20)}`).join("\n");
    const message = renderSlack({ blocks: [{ kind: "code", content }] });
    expect(blockKitProblems(message.blocks)).toEqual([]);
    const sections = (message.blocks as AnyBlock[]).filter((b) => b.type === "section");
    expect(sections.length).toBeGreaterThan(1);
    for (const s of sections) {
      const text = s.text?.text ?? "";
      expect(text.startsWith("```\n") && text.endsWith("\n```")).toBe(true);
      expect(text.slice(4, -4)).not.toContain("```");
    }
  });

  it("splits long prose into sections of at most 3,000 characters without cutting an &entity;", () => {
    const pieces = splitText("&amp;".repeat(1000), 3000);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(3000);
      expect(p).toMatch(/^(&amp;)+$/);
    }
  });

  it("makes 40 long-labelled buttons into two actions blocks with labels of at most 75 characters", () => {
    const message = renderSlack({ buttons: bigReply().buttons });
    const actions = (message.blocks as AnyBlock[]).filter((b) => b.type === "actions");
    expect(actions.map((a) => a.elements?.length)).toEqual([25, 15]);
    expect(blockKitProblems(message.blocks)).toEqual([]);
  });

  it("gives Confirm and Cancel only their prompt's confirmation id, never the command, and refuses the old stateless values", () => {
    const id = "AbCdEfGhIjKlMnOpQrSt_-";
    const message = renderSlack({
      title: "Start?",
      buttons: [
        { kind: "confirm", label: "Confirm", command: '/rl start "gsm8k"', confirmation: id, style: "primary" },
        { kind: "cancel", label: "Cancel", confirmation: id },
      ],
    });
    const values = buttonsOf(message.blocks).map((b) => b.value);
    expect(values).toEqual([JSON.stringify({ k: id, a: "confirm" }), JSON.stringify({ k: id, a: "cancel" })]);
    expect(values.map(decodeButtonValue)).toEqual([
      { kind: "answer", confirmation: id, answer: "confirm" },
      { kind: "answer", confirmation: id, answer: "cancel" },
    ]);
    // What earlier versions put on prompts is never run again.
    expect(decodeButtonValue(JSON.stringify({ c: "/rl start", y: 1 }))).toBeUndefined();
    expect(decodeButtonValue(JSON.stringify({ c: "", a: "cancel" }))).toBeUndefined();
  });

  it("leaves out (and says so) a button whose command cannot fit in a button value", () => {
    const message = renderSlack({
      buttons: [{ kind: "command", label: "Set", command: `/rl set prompt ${"p".repeat(3000)}` }],
    });
    expect(buttonsOf(message.blocks)).toHaveLength(0);
    expect(textOf(message.blocks)).toContain("too long for a button");
    expect(blockKitProblems(message.blocks)).toEqual([]);
  });

  it("renders a chart as a sparkline with min, max and last", () => {
    const points = Array.from({ length: 500 }, (_, i) => ({ x: i, y: Math.sin(i / 20) }));
    const message = renderSlack({ chart: { title: "reward/mean", points } });
    const text = textOf(message.blocks);
    expect(text).toContain("*reward/mean*");
    expect(text).toMatch(/`[▁▂▃▄▅▆▇█]{60}`/);
    expect(text).toMatch(/min -?\d.* · max .* · last /);
  });

  it("escapes link labels and keeps a URL's | from ending the link", () => {
    const message = renderSlack({
      links: [
        { label: "a|b <c>", url: "https://x.example/?q=1|2" },
        { label: "local", url: "file:///etc/passwd" },
      ],
    });
    const text = textOf(message.blocks);
    expect(text).toContain("<https://x.example/?q=1%7C2|a¦b &lt;c&gt;>");
    expect(text).toContain("local (file:///etc/passwd)");
  });

  it("redacts secrets everywhere, including button values and the fallback", () => {
    const secret = "xoxb-very-secret-token";
    const redact = createRedactor([secret]);
    const message = renderSlack(
      {
        title: `t ${secret}`,
        text: `x ${secret}`,
        fields: [{ label: secret, value: secret }],
        blocks: [{ kind: "code", content: secret }],
        buttons: [{ kind: "command", label: secret, command: `/rl echo ${secret}` }],
      },
      { redact },
    );
    expect(JSON.stringify(message)).not.toContain(secret);
    expect(message.text).toContain("[redacted]");
  });

  it("always has a fallback text, even for an empty reply", () => {
    expect(renderSlack({}).text).toBe("rl-chatops");
    expect(renderSlack({ fields: [{ label: "a", value: "b" }] }).text).toBe("a: b");
  });
});
