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

export interface ReplyButton {
  label: string;
  /**
   * The command text the button stands for, e.g. "/rl stop ab12cd34"; authorised like that command. On a
   * prompt's Confirm it is what will run (shown, never re-run from here: the stored confirmation is).
   */
  command: string;
  style?: "primary" | "danger";
  /** The confirmation prompt this button answers (db/confirmations.ts), by id; set with action. */
  confirmation?: string;
  /** With confirmation: "confirm" runs the stored command once, "cancel" closes the prompt. Only its asker or an admin may. */
  action?: "confirm" | "cancel";
  /** Turns a paged message to another of its pages (db/reply-pages.ts), edited in place; command is then "". */
  page?: { id: string; index: number };
}

/** The Confirm buttons of a reply (one per prompt it carries). */
export function confirmButtons(reply: Pick<Reply, "buttons">): ReplyButton[] {
  return (reply.buttons ?? []).filter((b) => b.action === "confirm" && b.confirmation !== undefined);
}

export interface ReplyChart {
  title: string;
  points: Array<{ x: number; y: number }>;
}

export interface Reply {
  title?: string;
  text?: string;
  fields?: ReplyField[];
  blocks?: ReplyBlock[];
  links?: ReplyLink[];
  buttons?: ReplyButton[];
  chart?: ReplyChart;
  /** Shown only to the person who asked (errors, usage). */
  ephemeral?: boolean;
  /** Present when the command failed. */
  error?: { code: string; message: string; details?: Record<string, unknown> };
  /** The message carrying this reply becomes the thread where later notices about this run go. */
  anchorRunId?: string;
  /** The typed result, for --json and the LLM. */
  data?: unknown;
}
