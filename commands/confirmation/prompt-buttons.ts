// The prompts a reply carries, each as its Confirm and the Cancel answering the same confirmation.
import { confirmButtons, type CancelButton, type ConfirmButton, type Reply } from "../../src/reply.ts";

export interface PromptButtons {
  confirm: ConfirmButton;
  cancel?: CancelButton;
}

export function promptButtons(reply: Pick<Reply, "buttons">): PromptButtons[] {
  return confirmButtons(reply).map((confirm) => {
    const cancel = reply.buttons?.find(
      (b): b is CancelButton => b.kind === "cancel" && b.confirmation === confirm.confirmation,
    );
    return cancel ? { confirm, cancel } : { confirm };
  });
}
