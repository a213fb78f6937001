// The module hooks stall-import.mjs registers (they run on Node's loader thread, so the process's main thread stays
// free to take signals while the load is held).
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";

let dir;

export function initialize(data) {
  dir = data?.dir;
}

export async function load(url, context, next) {
  if (dir && url.endsWith("/dist/cli.js")) {
    writeFileSync(path.join(dir, "stalled"), "");
    while (!existsSync(path.join(dir, "release"))) await new Promise((r) => setTimeout(r, 20));
  }
  return next(url, context);
}
