// Renders a neutral reply as plain text, for the terminal console and the command line.
import type { Reply } from "../src/reply.ts";

export function renderText(reply: Reply): string {
  const out: string[] = [];
  if (reply.title) out.push(reply.error ? `✗ ${reply.title}` : `■ ${reply.title}`);
  if (reply.text) out.push(reply.text);
  for (const f of reply.fields ?? []) out.push(`  ${f.label}: ${f.value}`);
  for (const b of reply.blocks ?? []) {
    if (b.title) out.push(`${b.title}:`);
    out.push(b.kind === "code" ? b.content.split("\n").map((l) => `  ${l}`).join("\n") : b.content);
  }
  if (reply.chart && reply.chart.points.length > 1) out.push(`${reply.chart.title}: ${sparkline(reply.chart.points.map((p) => p.y))}`);
  for (const l of reply.links ?? []) out.push(`${l.label}: ${l.url}`);
  if (reply.buttons?.length) out.push(reply.buttons.map((b) => `[${b.label}: ${b.command}]`).join("  "));
  return out.join("\n");
}

const BARS = "▁▂▃▄▅▆▇█";

export function sparkline(values: readonly number[]): string {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return "";
  const min = Math.min(...finite);
  const span = Math.max(...finite) - min || 1;
  return finite.map((v) => BARS[Math.min(BARS.length - 1, Math.floor(((v - min) / span) * BARS.length))]).join("");
}
