// Renders a neutral reply as plain text, for the terminal console and the command line.
import { buttonCommand, showPeople, type ReplyContent } from "../src/reply.ts";

export function renderText(reply: ReplyContent): string {
  return showPeople(renderParts(reply), (id) => id);
}

function renderParts(reply: ReplyContent): string {
  const out: string[] = [];
  if (reply.title) out.push(reply.error ? `✗ ${reply.title}` : `■ ${reply.title}`);
  if (reply.text) out.push(reply.text);
  let group: string | undefined;
  for (const f of reply.fields ?? []) {
    if (f.group !== undefined && f.group !== group) out.push(`${f.group}:`);
    group = f.group;
    out.push(`  ${f.label}: ${f.value.replace(/\n/g, "\n    ")}`);
  }
  for (const b of reply.blocks ?? []) {
    if (b.title) out.push(`${b.title}:`);
    out.push(
      b.kind === "code"
        ? b.content
            .split("\n")
            .map((l) => `  ${l}`)
            .join("\n")
        : b.content,
    );
  }
  if (reply.chart && reply.chart.points.length > 1)
    out.push(`${reply.chart.title}: ${sparkline(reply.chart.points.map((p) => p.y))}`);
  for (const l of reply.links ?? []) out.push(`${l.label}: ${l.url}`);
  if (reply.buttons?.length) out.push(reply.buttons.map((b) => `[${b.label}: ${buttonCommand(b)}]`).join("  "));
  return out.join("\n");
}

const BARS = "▁▂▃▄▅▆▇█";

/** A one-line chart; long series are averaged into at most `width` buckets so the line stays readable. */
export function sparkline(values: readonly number[], width = 60): string {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return "";
  const buckets = Math.min(width, finite.length);
  const points: number[] = [];
  for (let b = 0; b < buckets; b++) {
    const slice = finite.slice(
      Math.floor((b * finite.length) / buckets),
      Math.floor(((b + 1) * finite.length) / buckets),
    );
    points.push(slice.reduce((a, v) => a + v, 0) / slice.length);
  }
  let min = Infinity;
  let max = -Infinity;
  for (const v of points) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const span = max - min || 1;
  return points.map((v) => BARS[Math.min(BARS.length - 1, Math.floor(((v - min) / span) * BARS.length))]).join("");
}
