#!/usr/bin/env -S node --max-semi-space-size=4
// Entry point for the `rl-chatops` command and `npm start`: runs the build in dist/ (made by `npm ci`, or `npm run
// build` after changing the sources; `npm run dev` runs the sources through tsx instead). Both start Node with a
// young generation of 4 MB semi-spaces instead of 16: an idle bot with Slack and Discord then holds about 20 MB less
// (its heap is small; the default sizes it for allocation-heavy servers), for a few more, shorter scavenges.
//
// CommonJS (bin/package.json): `exec` and `scan`, the commands people script, are one CommonJS file each in dist/
// (bin/build.mjs, COMMONJS), required here when the command line starts with their verb, so those processes never
// start Node's ES module loader; `--help` is answered by the smaller of them (every program prints the usage). Every
// other command line goes to the full command, dist/cli.js, an ES module.
"use strict";
// Before anything that needs Node 20.12 is loaded (bin/check-node.cjs says which version is needed, exit 1).
if (require("./check-node.cjs").checkNode(process.versions.node)) run();

function run() {
  const { existsSync } = require("node:fs");
  const path = require("node:path");
  const { pathToFileURL } = require("node:url");

  const dist = path.join(__dirname, "..", "dist");
  const cli = path.join(dist, "cli.js");
  const PROGRAMS = {
    exec: "exec-command.cjs",
    scan: "scan-command.cjs",
    "--help": "exec-command.cjs",
    help: "exec-command.cjs",
  };

  const verb = process.argv[2];
  const program = Object.hasOwn(PROGRAMS, verb) ? path.join(dist, PROGRAMS[verb]) : undefined;
  if (!existsSync(cli)) {
    process.stderr.write(
      "rl-chatops: dist/ is missing; build it with `npm run build` (npm ci does), or run the sources with `npm run dev`.\n",
    );
    process.exitCode = 1;
  } else if (program && existsSync(program)) {
    require(program).main(process.argv.slice(2));
  } else {
    // The full command takes a moment to load (longer on a busy machine): a SIGINT or SIGTERM meanwhile is kept for it
    // (src/cli/early-signals.ts) instead of killing the process at once, so a bot stopped as it starts exits cleanly.
    const early = { signals: [], keep: (signal) => early.signals.push(signal) };
    process[Symbol.for("rl-chatops.early-signals")] = early;
    process.on("SIGINT", early.keep);
    process.on("SIGTERM", early.keep);
    import(pathToFileURL(cli).href);
  }
}
