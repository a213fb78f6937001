#!/usr/bin/env node
// Entry point for `npm run bench`: builds dist/ (the processes the bench starts run the build, as users do), then
// runs the benchmark's TypeScript through tsx, in a Node started with the bot's own flags (bin/bot-node-flags.mjs):
// the measurements that run the bot in this process (responsiveness, digests, discovery) see its garbage collector
// sized as the bot's is.
import { execa } from "execa";
import { register } from "tsx/esm/api";
import { botNodeFlags } from "./bot-node-flags.mjs";
import { buildDist } from "./build.mjs";

const missing = botNodeFlags().filter((flag) => !process.execArgv.includes(flag));
if (missing.length > 0) {
  const child = await execa(process.execPath, [...process.execArgv, ...missing, ...process.argv.slice(1)], {
    stdio: "inherit",
    reject: false,
  });
  process.exit(child.exitCode ?? 1);
}
await buildDist({ quiet: true });
register();
await import("../bench/main.ts");
