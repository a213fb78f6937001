// Measurement: a read tool's round trip through `rl-chatops mcp` (the SDK's own client over stdio) against a running
// background supervisor, as a ratio to `exec` of the same command, whole process. Also reported: the same through an
// mcp process started for that one call (spawn, initialize, call).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { BenchContext } from "./bench-context.ts";
import type { BenchRow } from "./bench-row.ts";
import { benchTempDir, onCleanup } from "./cleanup.ts";
import { rotatedRuns } from "./rotated-runs.ts";
import { CLI, measuredEnv, runProcess } from "./scan-processes.ts";
import { median, ms, times } from "./stats.ts";

const GOAL = 1.5;
const COMMAND = "/rl runs";
const TOOL = "rl_list_runs";

/** An mcp process on `cwd` with the SDK's client connected (initialized). */
async function connect(cwd: string, env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "rl-chatops-bench", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp"], cwd, env }));
  return client;
}

async function callRead(client: Client): Promise<void> {
  const result = await client.callTool({ name: TOOL, arguments: {} });
  if (result.isError) throw new Error(`${TOOL} through mcp failed: ${JSON.stringify(result.content).slice(0, 500)}`);
}

export async function measureMcpRead(ctx: BenchContext): Promise<BenchRow[]> {
  const reps = ctx.sizes.cliReps;
  const cwd = benchTempDir("mcp-read");
  writeFileSync(path.join(cwd, "rl-chatops.yaml"), "");
  const env = Object.fromEntries(
    Object.entries(measuredEnv({ RL_LOG_LEVEL: "silent" })).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const exec = async () => (await runProcess(process.execPath, [CLI, "exec", COMMAND], { cwd, env })).wallMs;
  // The first exec starts the background supervisor: the running owner both clients then ask. Not counted.
  await exec();
  const stopSupervisor = onCleanup(async () => void (await runProcess(process.execPath, [CLI, "stop"], { cwd, env })));
  const client = await connect(cwd, env);
  const closeClient = onCleanup(() => client.close());
  const commands: Record<string, () => Promise<number>> = {
    exec,
    mcp: async () => {
      const start = performance.now();
      await callRead(client);
      return performance.now() - start;
    },
    mcpCold: async () => {
      const start = performance.now();
      const once = await connect(cwd, env);
      try {
        await callRead(once);
        return performance.now() - start;
      } finally {
        await once.close();
      }
    },
  };
  const runs = await rotatedRuns(commands, reps, (runs, rep) =>
    ctx.progress(
      `  ${TOOL} ${rep + 1}/${reps}: mcp ${ms(runs.mcp!.at(-1)!)}, mcp started for the call ${ms(runs.mcpCold!.at(-1)!)}, exec "${COMMAND}" ${ms(runs.exec!.at(-1)!)}`,
    ),
  );
  await closeClient();
  await stopSupervisor();
  const execMs = median(runs.exec!);
  const mcpMs = median(runs.mcp!);
  const coldMs = median(runs.mcpCold!);
  const baseline = `${ms(execMs)} (exec "${COMMAND}")`;
  return [
    {
      id: "mcp-read",
      measurement: `MCP read tool round trip, ${TOOL}`,
      sizes: "a connected client, the background supervisor running",
      ours: ms(mcpMs),
      baseline,
      ratio: times(mcpMs / execMs),
      goal: `<= ${GOAL.toFixed(2)}x exec`,
      met: mcpMs <= GOAL * execMs,
      note:
        `tools/call ${TOOL} from the SDK's own client to \`rl-chatops mcp\` over stdio (started once, as an agent keeps it), handed to the background supervisor over its socket and answered, ` +
        `against \`node bin/rl-chatops.js exec "${COMMAND}"\` timed from spawn to exit, both asking the same running supervisor. Runs rotated; median of ${reps}.`,
      repetitions: reps,
      data: { exec: runs.exec, mcp: runs.mcp },
    },
    {
      id: "mcp-read-cold",
      measurement: `MCP read tool, an mcp process for one call`,
      sizes: "spawn, initialize, one tools/call",
      ours: ms(coldMs),
      baseline,
      ratio: times(coldMs / execMs),
      goal: "report",
      met: null,
      note:
        `\`rl-chatops mcp\` started by the SDK's client for a single ${TOOL} call: from spawn through the initialize handshake to the answer (the MCP SDK is loaded, where exec loads one CommonJS file). ` +
        `Rotated with the row above; median of ${reps}.`,
      repetitions: reps,
      data: { exec: runs.exec, mcpCold: runs.mcpCold },
    },
  ];
}
