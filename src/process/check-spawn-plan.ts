// Before a component is spawned: its command and script exist, or a PROCESS_FAILED error says what to install or set.
import { existsSync } from "node:fs";
import path from "node:path";
import { RlError } from "../errors.ts";
import { findCommand } from "./find-command.ts";
import { PYTHON_NAME } from "./python-interpreter.ts";
import type { SpawnPlan } from "./supervised-process.ts";

/** What a component's command is and how a person changes or installs it. */
export interface CommandHelp {
  /** "The trajectory API command", "The trainer command", "The Python that runs environments". */
  what: string;
  /** The settings that change the command, first the one to try. */
  settings: string[];
  /** Where the command comes from, as an instruction. */
  provider: string;
}

/** Throw the error a person can act on when `plan` cannot start; return quietly when it can. */
export function checkSpawnPlan(plan: SpawnPlan, help: CommandHelp): void {
  const details = { component: plan.component, command: plan.command };
  const change = help.settings.length === 1 ? `set ${help.settings[0]}` : `set ${help.settings.join(" or ")}`;
  const lookup = findCommand(plan.command, plan.cwd, plan.env.PATH);
  if (!lookup.found) {
    const where = plan.command.includes("/") ? "" : " on PATH";
    const problem =
      lookup.problem === "not found"
        ? `was not found${where}`
        : `${lookup.path} is ${lookup.problem === "a folder" ? "a folder" : "not executable"}`;
    throw new RlError(
      "PROCESS_FAILED",
      `${help.what} "${plan.command}" ${problem}. ${help.provider}; or ${change} to the command to use.`,
      { details },
    );
  }
  // `python launch_training.py`: the interpreter is there, the script may not be (python would exit 2 with no hint).
  const script = plan.args[0];
  if (PYTHON_NAME.test(path.basename(plan.command)) && script?.endsWith(".py")) {
    const file = path.resolve(plan.cwd, script);
    if (!existsSync(file)) {
      throw new RlError(
        "PROCESS_FAILED",
        `${help.what} runs ${script}, which is not in ${plan.cwd}. ${help.provider}; or ${change} to the command to use.`,
        {
          details: { ...details, script: file },
        },
      );
    }
  }
}
