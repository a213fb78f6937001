// The neutral reply every command returns; each adapter renders it within its platform's limits.
export interface ReplyField {
  label: string;
  value: string;
  /** A heading the field is listed under (consecutive fields with the same group share it). */
  group?: string;
}

export interface ReplyBlock {
  /** "code" is preformatted (logs, YAML); "text" is prose. */
  kind: "code" | "text";
  content: string;
  title?: string;
}

export interface ReplyLink {
  label: string;
  url: string;
}

/** What every button has: the words on it and how it stands out. */
interface ButtonFace {
  label: string;
  style?: "primary" | "danger";
}

/** Runs a command as the clicker, authorised like typing it, e.g. "/rl stop ab12cd34". */
export interface CommandButton extends ButtonFace {
  kind: "command";
  command: string;
}

/**
 * A prompt's Confirm: runs the stored command of the confirmation (db/confirmations.ts) once, as the clicker. Only its
 * asker or an admin may. `command` is what will run, for showing: never re-run from here, the stored record is.
 */
export interface ConfirmButton extends ButtonFace {
  kind: "confirm";
  confirmation: string;
  command: string;
}

/** A prompt's Cancel: closes the confirmation, nothing runs. Only its asker or an admin may. */
export interface CancelButton extends ButtonFace {
  kind: "cancel";
  confirmation: string;
}

/** Turns a paged message to another of its pages (db/reply-pages.ts), edited in place. */
export interface PageButton extends ButtonFace {
  kind: "page";
  page: { id: string; index: number };
}

/** Posts a private answer (its pages kept in db/reply-pages.ts) to the channel for everyone, naming who shared it. */
export interface ShareButton extends ButtonFace {
  kind: "share";
  page: { id: string; index: number };
}

export type ReplyButton = CommandButton | ConfirmButton | CancelButton | PageButton | ShareButton;

/** The command text a button shows: what it runs or confirms; "" for a Cancel, a page turn or a share. */
export function buttonCommand(button: ReplyButton): string {
  return button.kind === "command" || button.kind === "confirm" ? button.command : "";
}

/** The Confirm buttons of a reply (one per prompt it carries). */
export function confirmButtons(reply: Pick<Reply, "buttons">): ConfirmButton[] {
  return (reply.buttons ?? []).filter((b): b is ConfirmButton => b.kind === "confirm");
}

export interface ReplyChartSeries {
  label: string;
  points: Array<{ x: number; y: number }>;
}

export interface ReplyChart {
  title: string;
  /** The line drawn, and the one a text sparkline shows where no picture can be (with series: the one to single out). */
  points: Array<{ x: number; y: number }>;
  /** Several lines in one picture (a comparison's reward curves), each in its own colour with its label. */
  series?: ReplyChartSeries[];
}

/**
 * The whole text of what a reply shows cut short, shared beside it as a plain-text file where the platform takes one
 * (a Slack snippet in the answer's thread, a Discord attachment); the console shows the reply's texts whole instead.
 */
export interface ReplyFile {
  /** "samples-ab12cd34-step-3.txt". */
  name: string;
  title: string;
  text: string;
}

/** What a reply says: every renderer reads only this. */
export interface ReplyContent {
  title?: string;
  text?: string;
  fields?: ReplyField[];
  blocks?: ReplyBlock[];
  links?: ReplyLink[];
  buttons?: ReplyButton[];
  chart?: ReplyChart;
  file?: ReplyFile;
  /** Present when the command failed. */
  error?: { code: string; message: string; details?: Record<string, unknown> };
  /** The typed result, for --json and the LLM. */
  data?: unknown;
}

/** How and where a reply is delivered: only the adapters' sending code reads this. */
export interface ReplyDelivery {
  /** Shown only to the person who asked (errors, usage). */
  ephemeral?: boolean;
  /** Shown privately with a "Post to channel" button that posts the same answer for everyone (a personal read). */
  shareable?: boolean;
  /** The message carrying this reply becomes the thread where later notices about this run go. */
  anchorRunId?: string;
  /** The run this reply is about: posted as a notice outside any thread, its chart's picture goes under it. */
  runId?: string;
  /** The approval request this reply asks for: the message carrying it is edited once the request is decided. */
  approvalId?: string;
}

export interface Reply extends ReplyContent {
  delivery?: ReplyDelivery;
  // Delivery fields written at the top level (as replies were shaped before `delivery`) fail to compile even where
  // TypeScript checks no excess properties, e.g. an object returned from an async run().
  ephemeral?: never;
  anchorRunId?: never;
  runId?: never;
}

/** True when the reply is shown only to the person who asked. */
export function isEphemeral(reply: Reply): boolean {
  return reply.delivery?.ephemeral === true;
}

/** The reply shown only to the person who asked, the rest of its delivery kept. */
export function asEphemeral(reply: Reply): Reply {
  return { ...reply, delivery: { ...reply.delivery, ephemeral: true } };
}

/** Private-use characters around a person's id in reply text; each adapter shows it as a mention that does not ping. */
const PERSON_OPEN = "\uE000";
const PERSON_CLOSE = "\uE001";
const PERSON = /\uE000([^\uE000\uE001]{1,100})\uE001/g;

/** A person in reply text (Started by, Stopped by): Slack shows <@U…>, Discord <@id> with no ping, the console the id. */
export function personRef(id: string): string {
  return `${PERSON_OPEN}${id.replace(/[\uE000\uE001]/g, "")}${PERSON_CLOSE}`;
}

/** The text with each person written as `show` says (given the id as it stands in the text by then). */
export function showPeople(text: string, show: (id: string) => string): string {
  return text.includes(PERSON_OPEN) ? text.replace(PERSON, (_, id: string) => show(id)) : text;
}

/** The ids of the people written with personRef in `text`, each once. */
export function peopleIn(text: string): string[] {
  return text.includes(PERSON_OPEN)
    ? [...new Set([...text.matchAll(PERSON)].map((m) => m[1] ?? ""))].filter(Boolean)
    : [];
}
