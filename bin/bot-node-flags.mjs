// The Node flags the bot runs with: those on the first line of bin/rl-chatops.js, which `npm start` repeats (see
// test/build.test.ts). The bench runs its in-process measurements of the bot with them too.
import { readFileSync } from "node:fs";

const SHEBANG = /^#!\/usr\/bin\/env -S node((?: --[a-z-]+=\S+)*)\s*$/;

/** The flags after `node` on bin/rl-chatops.js's first line. */
export function botNodeFlags() {
  const first = readFileSync(new URL("./rl-chatops.js", import.meta.url), "utf8").split("\n", 1)[0] ?? "";
  const match = SHEBANG.exec(first);
  if (!match)
    throw new Error(`bin/rl-chatops.js's first line is not "#!/usr/bin/env -S node --flag=value ...": ${first}`);
  return match[1].split(" ").filter(Boolean);
}
