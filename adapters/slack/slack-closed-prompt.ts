// A public prompt (a chat answer with Confirm/Cancel) once answered: the same message without that prompt's buttons,
// and a line saying who answered it and how, for chat.update.
import { decodeButtonValue } from "./slack-button-value.ts";
import { escapeMrkdwn, truncate } from "./slack-mrkdwn.ts";
import { SLACK_LIMITS, type KnownBlock, type SlackMessage } from "./slack-render.ts";

/** The clicked message as the block_actions payload carries it: its blocks are the ones the bot posted. */
export interface ClickedMessage {
  ts: string;
  /** The conversation's thread (its parent's ts) when the message is a reply in one. */
  thread?: string;
  text?: string;
  blocks?: unknown;
}

/** Whether a block element is a button answering this confirmation. */
function answers(element: unknown, confirmation: string): boolean {
  const value = decodeButtonValue((element as { value?: unknown } | null)?.value);
  return value?.kind === "answer" && value.confirmation === confirmation;
}

/**
 * The message with the buttons of this one prompt removed (other prompts in the same answer keep theirs; an actions
 * block left empty goes, since Slack refuses one) and `line` added under it.
 */
export function closedPrompt(message: ClickedMessage, confirmation: string, line: string): SlackMessage {
  const blocks = Array.isArray(message.blocks) ? (message.blocks as KnownBlock[]) : [];
  const kept = blocks.flatMap((block): KnownBlock[] => {
    if (block.type !== "actions") return [block];
    const elements = block.elements.filter((e) => !answers(e, confirmation));
    return elements.length > 0 ? [{ ...block, elements }] : [];
  });
  const note: KnownBlock = {
    type: "context",
    elements: [{ type: "mrkdwn", text: truncate(escapeMrkdwn(line), SLACK_LIMITS.contextText), verbatim: true }],
  };
  const room = SLACK_LIMITS.blocks - 1;
  return {
    text: truncate([message.text, line].filter(Boolean).join("\n"), SLACK_LIMITS.fallbackText),
    blocks: [...kept.slice(0, room), note],
  };
}
