// Run by discovery-process.test.ts as a process of its own (`node --import tsx`), standing in for the bot:
// - idle: scans the fixtures, prints the discovery process's pid and how many environments it found, and has nothing
//   else to do, so it should end by itself;
// - scanning: starts a scan of the folder given, prints the discovery process's pid at once and waits forever (the
//   test kills it with SIGKILL in the middle of the scan);
// - interrupt: scans the fixtures, prints "ready", and on SIGINT (a Ctrl-C to its whole process group) scans them
//   again and prints what that scan parsed (0 when the same discovery process, its cache kept, answered).
import { fileURLToPath } from "node:url";
import { createProcessScanner } from "../../src/environments/discovery-process/process-scanner.ts";
import { discoveryProcessesOf } from "./discovery-processes.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/envs/", import.meta.url));
const [mode, dir] = process.argv.slice(2);
const scanner = createProcessScanner({ lockedEnv: {} });
if (mode === "interrupt") {
  await scanner.scan(FIXTURES);
  // Alive until the signal; the rescan then keeps it alive until it is answered.
  const waiting = setInterval(() => undefined, 60_000);
  process.once("SIGINT", () => {
    clearInterval(waiting);
    void scanner
      .scan(FIXTURES)
      .then(
        () => process.stdout.write(`parsed ${scanner.stats().parsed}\n`),
        (err: Error) => process.stdout.write(`failed: ${err.message}\n`),
      )
      .finally(() => scanner.close());
  });
  process.stdout.write("ready\n");
} else if (mode === "idle") {
  const result = await scanner.scan(FIXTURES);
  process.stdout.write(`${discoveryProcessesOf(process.pid).join(",")} ${result.environments.length}\n`);
} else {
  void scanner.scan(dir ?? FIXTURES);
  process.stdout.write(`${discoveryProcessesOf(process.pid).join(",")}\n`);
  setInterval(() => undefined, 60_000);
}
