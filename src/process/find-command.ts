// Where a command would be found when spawned without a shell (its PATH, or relative to its folder), and why not.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

export type CommandLookup =
  { found: true; path: string } | { found: false; problem: "not found" | "not executable" | "a folder"; path?: string };

function inspect(file: string): CommandLookup | undefined {
  let isDir: boolean;
  try {
    isDir = statSync(file).isDirectory();
  } catch {
    return undefined;
  }
  if (isDir) return { found: false, problem: "a folder", path: file };
  try {
    accessSync(file, constants.X_OK);
    return { found: true, path: file };
  } catch {
    return { found: false, problem: "not executable", path: file };
  }
}

/** Resolve `command` as spawn would: a name with a slash against `cwd`, a bare name along `searchPath`. */
export function findCommand(command: string, cwd: string, searchPath: string | undefined): CommandLookup {
  if (command.includes("/"))
    return (
      inspect(path.resolve(cwd, command)) ?? { found: false, problem: "not found", path: path.resolve(cwd, command) }
    );
  let firstProblem: CommandLookup | undefined;
  for (const dir of (searchPath ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const seen = inspect(path.resolve(cwd, dir, command));
    if (seen?.found) return seen;
    // A non-executable file of that name is only the answer when no executable one comes later.
    if (seen && !firstProblem && seen.problem === "not executable") firstProblem = seen;
  }
  return firstProblem ?? { found: false, problem: "not found" };
}
