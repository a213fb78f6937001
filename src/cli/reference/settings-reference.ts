// docs/settings.md's generated part: every setting of the schema (src/config.ts), grouped and described as
// .env.example describes it, with the default the schema gives.
import { SETTING_NAMES, settingDefault, type SettingName } from "../../config.ts";
import { escapeCell } from "./markdown.ts";

interface Described {
  section: string;
  comment: string;
}

/** Each setting's section (the `# --- Title ---` line above it) and comment (the `#` lines just above it). */
export function describeFromEnvExample(example: string): Map<string, Described> {
  const found = new Map<string, Described>();
  let section = "Settings";
  let comment: string[] = [];
  for (const line of example.split("\n")) {
    const title = /^# --- (.+?) -+\s*$/.exec(line);
    if (title) {
      section = title[1]!;
      comment = [];
    } else if (line.startsWith("#")) comment.push(line.replace(/^#\s?/, ""));
    else {
      const name = /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
      if (name) found.set(name, { section, comment: comment.join(" ") });
      comment = [];
    }
  }
  return found;
}

function showDefault(value: unknown): string {
  if (value === undefined) return "—";
  if (Array.isArray(value)) return value.length ? `\`${value.join(",")}\`` : "empty";
  if (value === "") return "empty";
  return `\`${String(value)}\``;
}

/** The generated Markdown: one table per section of .env.example, every setting of the schema in one of them. */
export function settingsReference(example: string): string {
  const described = describeFromEnvExample(example);
  const missing = SETTING_NAMES.filter((name) => !described.has(name));
  if (missing.length)
    throw new Error(`.env.example does not describe ${missing.join(", ")}: add a comment and a line.`);
  const sections = new Map<string, SettingName[]>();
  for (const name of SETTING_NAMES) {
    const { section } = described.get(name)!;
    sections.set(section, [...(sections.get(section) ?? []), name]);
  }
  const lines: string[] = [];
  for (const [section, names] of sections) {
    lines.push(`### ${section}`, "", "| setting | default | meaning |", "| --- | --- | --- |");
    for (const name of names) {
      const { comment } = described.get(name)!;
      lines.push(`| \`${name}\` | ${escapeCell(showDefault(settingDefault(name)))} | ${escapeCell(comment)} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
