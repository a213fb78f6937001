// Splits a reply too long for one message into pages that each fit, keeps them in SQLite, and shows one with Previous/Next.
import type { ChannelKey } from "../db/channel-key.ts";
import type { ReplyPagesRepo } from "../db/reply-pages.ts";
import type { Reply, ReplyBlock, ReplyButton, ReplyDelivery, ReplyField } from "../src/reply.ts";
import { splitText } from "./split-text.ts";

/** Whether a reply renders on the platform without anything cut. */
export type FitsOne = (reply: Reply) => boolean;

/** A single line or field longer than this is cut into pieces first, so every piece fits a page. */
const MAX_UNIT = 900;
/** The most pages one reply becomes; past it the last page says what is left out. */
const MAX_PAGES = 200;
/** A page id as long as a real one, for measuring pages before they are saved. */
const PROBE_ID = "x".repeat(22);

type Unit =
  | { kind: "text"; text: string }
  | { kind: "field"; field: ReplyField }
  | { kind: "block"; block: number; text: string; first: boolean };

function unitsOf(reply: Reply): Unit[] {
  const lines = (text: string): string[] => text.split("\n").flatMap((line) => splitText(line, MAX_UNIT));
  const units: Unit[] = [];
  for (const text of reply.text ? lines(reply.text) : []) units.push({ kind: "text", text });
  for (const field of reply.fields ?? []) {
    splitText(field.value, MAX_UNIT).forEach((value, i) =>
      units.push({
        kind: "field",
        field: { ...field, value, label: i === 0 ? field.label : `${field.label} (continued)` },
      }),
    );
  }
  (reply.blocks ?? []).forEach((block, index) => {
    lines(block.content).forEach((text, i) => units.push({ kind: "block", block: index, text, first: i === 0 }));
  });
  return units;
}

/**
 * The page's part of the reply: its lines, fields and pieces of blocks; the chart, the file and the run anchor on the
 * first page only.
 */
function assemble(reply: Reply, units: readonly Unit[], index: number): Reply {
  const text = units.flatMap((u) => (u.kind === "text" ? [u.text] : []));
  const fields = units.flatMap((u) => (u.kind === "field" ? [u.field] : []));
  const blocks: ReplyBlock[] = [];
  let last: number | undefined;
  for (const u of units) {
    if (u.kind !== "block") continue;
    const source = reply.blocks?.[u.block];
    if (!source) continue;
    if (last === u.block) {
      const open = blocks[blocks.length - 1]!;
      open.content += `\n${u.text}`;
      continue;
    }
    const title = source.title === undefined ? undefined : u.first ? source.title : `${source.title} (continued)`;
    blocks.push({ kind: source.kind, content: u.text, ...(title !== undefined ? { title } : {}) });
    last = u.block;
  }
  const { chart, file, delivery, data: _data, ...rest } = reply;
  const kept = pageDelivery(delivery, index === 0);
  return {
    ...rest,
    text: text.length ? text.join("\n") : undefined,
    fields: fields.length ? fields : undefined,
    blocks: blocks.length ? blocks : undefined,
    ...(index === 0 && chart ? { chart } : {}),
    ...(index === 0 && file ? { file } : {}),
    ...(kept ? { delivery: kept } : {}),
  };
}

/** Every page is shown as the reply was (privately, beside its run); only the first one anchors the run. */
function pageDelivery(delivery: ReplyDelivery | undefined, first: boolean): ReplyDelivery | undefined {
  if (!delivery) return undefined;
  const { anchorRunId, ...rest } = delivery;
  if (first && anchorRunId) return { ...rest, anchorRunId };
  return Object.keys(rest).length ? rest : undefined;
}

/**
 * Page `index` of `pages` as a message: its number in the title and the buttons that turn to the pages either side;
 * a private answer also gets the button that posts it to the channel.
 */
export function pageView(pages: readonly Reply[], index: number, id: string): Reply {
  const page = pages[index] ?? pages[0] ?? {};
  const nav: ReplyButton[] = [];
  if (index > 0) nav.push({ kind: "page", label: "◀ Previous", page: { id, index: index - 1 } });
  if (index < pages.length - 1) nav.push({ kind: "page", label: "Next ▶", page: { id, index: index + 1 } });
  const share: ReplyButton[] = page.delivery?.shareable
    ? [{ kind: "share", label: "Post to channel", page: { id, index } }]
    : [];
  const where = `page ${index + 1} of ${pages.length}`;
  const title = pages.length === 1 ? page.title : page.title ? `${page.title} (${where})` : `Page ${where.slice(5)}`;
  return {
    ...page,
    ...(title !== undefined ? { title } : {}),
    buttons: [...nav, ...(page.buttons ?? []), ...share],
  };
}

/** The pages of a private answer as everyone is shown them once it is posted to the channel. */
export function publicPages(pages: readonly Reply[]): Reply[] {
  return pages.map((page) => {
    const { ephemeral: _e, shareable: _s, ...rest } = page.delivery ?? {};
    const { delivery: _d, ...content } = page;
    return Object.keys(rest).length ? { ...content, delivery: rest } : content;
  });
}

/** The reply cut into pages that each fit once shown with pageView; a reply that fits whole is one page. */
export function splitIntoPages(reply: Reply, fits: FitsOne): Reply[] {
  // A private answer is measured with the button that posts it to the channel.
  const whole = reply.delivery?.shareable ? pageView([reply], 0, PROBE_ID) : reply;
  if (fits(whole)) return [reply];
  const units = unitsOf(reply);
  const probe = (page: readonly Unit[], index: number): boolean => {
    // Measured as a middle page of many: both buttons and the longest page number.
    const view = pageView([{}, assemble(reply, page, index), {}], 1, PROBE_ID);
    return fits({ ...view, title: `${reply.title ?? "Page"} (page ${MAX_PAGES} of ${MAX_PAGES})` });
  };
  const chunks: Unit[][] = [];
  let current: Unit[] = [];
  for (const unit of units) {
    const trial = [...current, unit];
    if (current.length === 0 || probe(trial, chunks.length)) {
      current = trial;
      continue;
    }
    chunks.push(current);
    current = [unit];
  }
  if (current.length || chunks.length === 0) chunks.push(current);
  if (chunks.length > MAX_PAGES) {
    const dropped = chunks.splice(MAX_PAGES).reduce((n, c) => n + c.length, 0);
    chunks[MAX_PAGES - 1]!.push({
      kind: "text",
      text: `…${dropped} more lines not shown; narrow the request (a filter, a limit).`,
    });
  }
  return chunks.map((chunk, i) => assemble(reply, chunk, i));
}

/**
 * The reply as its first message: whole when it fits, else page 1 of N with Next, the pages saved for the buttons.
 * `footer` is kept with the pages so every page shows the line the first one did. A private answer that may be posted
 * to the channel is saved even as one page: its "Post to channel" button posts what was kept.
 */
export function firstPage(
  reply: Reply,
  fits: FitsOne,
  store: { pages: ReplyPagesRepo; channel: ChannelKey; footer?: string },
): Reply {
  const pages = splitIntoPages(reply, fits);
  if (pages.length === 1 && !reply.delivery?.shareable) return reply;
  // The typed result stays with the answer (--json, the LLM); only what is shown is kept.
  const kept = pages.map(({ data: _data, ...page }) => page);
  const id = store.pages.save(store.channel, kept, store.footer);
  return { ...pageView(kept, 0, id), ...(reply.data !== undefined ? { data: reply.data } : {}) };
}
