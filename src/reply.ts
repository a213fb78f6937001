// The neutral reply every command returns; each adapter renders it within its platform's limits.
export interface ReplyField {
  label: string;
  value: string;
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
  /** The command text the button stands for, e.g. "/rl stop ab12cd34"; authorised like that command. */
  command: string;
  style?: "primary" | "danger";
  /** Run the command as already confirmed (the Confirm button of a confirmation prompt). */
  confirmed?: boolean;
  /** "cancel": dismiss the prompt without running anything. */
  action?: "cancel";
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
