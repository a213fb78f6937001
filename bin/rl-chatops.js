#!/usr/bin/env -S node --max-semi-space-size=4
// Entry point for the `rl-chatops` command and `npm start`: runs the build in dist/ (made by `npm ci`, or `npm run
// build` after changing the sources; `npm run dev` runs the sources through tsx instead). Both start Node with a
// young generation of 4 MB semi-spaces instead of 16: an idle bot with Slack and Discord then holds about 20 MB less
// (its heap is small; the default sizes it for allocation-heavy servers), for a few more, shorter scavenges.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
if (existsSync(cli)) {
  await import(cli.href);
} else {
  process.stderr.write(
    "rl-chatops: dist/ is missing; build it with `npm run build` (npm ci does), or run the sources with `npm run dev`.\n",
  );
  process.exitCode = 1;
}
