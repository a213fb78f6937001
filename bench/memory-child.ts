// Bench helper process: runs the real bot (startBot, adapters on the fakes the parent started) and reports its memory.
import type { Bot } from "../src/main.ts";

/**
 * BENCH_MEMORY_MODE: "bot" (default) starts the bot; "modules" only loads its code; "bare" loads nothing,
 * so the parent can show what Node and the code alone take before the bot does anything.
 */
const mode = process.env.BENCH_MEMORY_MODE ?? "bot";
let bot: Bot | undefined;

try {
  const start = performance.now();
  if (mode !== "bare") {
    const [{ loadConfig }, { startBot }] = await Promise.all([import("../src/config.ts"), import("../src/main.ts")]);
    if (mode === "bot") bot = await startBot(loadConfig(process.env, process.cwd()), { console: false });
  }
  process.send?.({ type: "started", ms: performance.now() - start });
} catch (err) {
  process.send?.({ type: "error", message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
}

process.on("message", (message: { type: string }) => {
  if (message.type === "memory") {
    process.send?.({ type: "memory", ...process.memoryUsage() });
  } else if (message.type === "gc") {
    // Started with --expose-gc: a full collection shows how much of the RSS is live and how much is garbage not yet returned.
    (globalThis as { gc?: () => void }).gc?.();
    setTimeout(() => process.send?.({ type: "gc-done", ...process.memoryUsage() }), 200);
  } else if (message.type === "stop") {
    void (bot ? bot.stop() : Promise.resolve()).finally(() => process.exit(0));
  }
});
