// Checks a message against Slack's published Block Kit limits, as Slack does before it answers invalid_blocks.
const KNOWN = new Set(["header", "section", "context", "actions", "divider", "image", "rich_text"]);

interface TextObject {
  type?: unknown;
  text?: unknown;
  verbatim?: unknown;
}

function textProblems(where: string, obj: unknown, max: number, kinds: readonly string[]): string[] {
  const t = obj as TextObject | undefined;
  if (!t || typeof t !== "object") return [`${where}: missing text object`];
  if (!kinds.includes(String(t.type))) return [`${where}: text type ${String(t.type)} not allowed`];
  // Slack takes verbatim on mrkdwn text objects only, as a boolean.
  if (t.verbatim !== undefined && (t.type !== "mrkdwn" || typeof t.verbatim !== "boolean"))
    return [`${where}: verbatim is only a boolean of mrkdwn text`];
  if (typeof t.text !== "string" || t.text.length === 0) return [`${where}: empty text`];
  if (t.text.length > max) return [`${where}: text is ${t.text.length} characters (max ${max})`];
  return [];
}

/** Every rule the message breaks; an empty list means Slack would accept it. */
export function blockKitProblems(blocks: unknown): string[] {
  if (blocks === undefined) return [];
  if (!Array.isArray(blocks)) return ["blocks is not an array"];
  const problems: string[] = [];
  if (blocks.length > 50) problems.push(`${blocks.length} blocks (max 50)`);
  const actionIds = new Set<string>();
  blocks.forEach((raw: unknown, i) => {
    const block = raw as Record<string, unknown>;
    const where = `blocks[${i}] (${String(block?.type)})`;
    if (!block || typeof block !== "object" || !KNOWN.has(String(block.type))) {
      problems.push(`${where}: unknown block type`);
      return;
    }
    switch (block.type) {
      case "header":
        problems.push(...textProblems(where, block.text, 150, ["plain_text"]));
        break;
      case "section": {
        if (block.text === undefined && block.fields === undefined) problems.push(`${where}: needs text or fields`);
        if (block.text !== undefined) problems.push(...textProblems(where, block.text, 3000, ["mrkdwn", "plain_text"]));
        if (block.fields !== undefined) {
          const fields = block.fields as unknown[];
          if (!Array.isArray(fields) || fields.length === 0 || fields.length > 10)
            problems.push(`${where}: ${String(fields?.length)} fields (1 to 10)`);
          else
            fields.forEach((f, j) =>
              problems.push(...textProblems(`${where}.fields[${j}]`, f, 2000, ["mrkdwn", "plain_text"])),
            );
        }
        break;
      }
      case "context": {
        const elements = block.elements as unknown[];
        if (!Array.isArray(elements) || elements.length === 0 || elements.length > 10)
          problems.push(`${where}: 1 to 10 elements`);
        else
          elements.forEach((e, j) =>
            problems.push(...textProblems(`${where}.elements[${j}]`, e, 3000, ["mrkdwn", "plain_text"])),
          );
        break;
      }
      case "actions": {
        const elements = block.elements as Array<Record<string, unknown>>;
        if (!Array.isArray(elements) || elements.length === 0 || elements.length > 25) {
          problems.push(`${where}: ${String(elements?.length)} elements (1 to 25)`);
          break;
        }
        elements.forEach((e, j) => {
          const at = `${where}.elements[${j}]`;
          if (e.type !== "button") return;
          problems.push(...textProblems(at, e.text, 75, ["plain_text"]));
          if (typeof e.value === "string" && e.value.length > 2000)
            problems.push(`${at}: value is ${e.value.length} characters (max 2000)`);
          if (e.style !== undefined && e.style !== "primary" && e.style !== "danger") problems.push(`${at}: bad style`);
          const id = String(e.action_id);
          if (id.length > 255) problems.push(`${at}: action_id too long`);
          if (actionIds.has(id)) problems.push(`${at}: duplicate action_id ${id}`);
          actionIds.add(id);
        });
        break;
      }
      default:
        break;
    }
  });
  return problems;
}
