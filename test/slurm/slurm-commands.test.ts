// Slurm command wrappers and job arguments without a cluster: scontrol/sbatch parsing, argv building, settings.
import { describe, expect, it } from "vitest";
import { loadConfig, slurmTimeSeconds } from "../../src/config.ts";
import { JOB_LAUNCHER, jobFiles, sbatchArgs } from "../../src/training/backends/slurm/job-spec.ts";
import {
  createSlurmCommands,
  parseSbatchParsable,
  parseScontrolJob,
  type CommandResult,
} from "../../src/training/backends/slurm/slurm-commands.ts";
import { tempDir } from "../helpers/test-services.ts";

// Real `scontrol -o show job` lines from Slurm 22.05 (one machine, node "vm").
const RUNNING =
  "JobId=3 JobName=rl-9c290876 UserId=root(0) GroupId=root(0) MCS_label=N/A Priority=4294901757 Nice=0 Account=(null) QOS=(null) JobState=RUNNING Reason=None Dependency=(null) Requeue=0 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0 RunTime=00:00:01 TimeLimit=UNLIMITED TimeMin=N/A SubmitTime=2026-11-30T00:33:46 AllocNode:Sid=localhost:13448 ReqNodeList=(null) ExcNodeList=(null) NodeList=vm BatchHost=vm NumNodes=1 NumCPUs=1 TRES=cpu=1,node=1,billing=1 Socks/Node=* NtasksPerN:B:S:C=0:0:*:* Command=/work/main/src/training/backends/slurm/job-launcher.py /tmp/x/job_9c290876.json WorkDir=/work/main StdOut=/tmp/x/job_9c290876.out Power=";
const PENDING =
  "JobId=18 JobName=rl-0a1b2c3d UserId=root(0) GroupId=root(0) JobState=PENDING Reason=Resources Dependency=(null) Requeue=0 Restarts=0 BatchFlag=1 ExitCode=0:0 RunTime=00:00:00 TimeLimit=UNLIMITED NodeList= BatchHost=(null) NumNodes=1";
const FAILED = "JobId=21 JobName=rl-x JobState=FAILED Reason=NonZeroExitCode ExitCode=1:0 NodeList=vm BatchHost=vm";
const CANCELLED = "JobId=32 JobName=rl-y JobState=CANCELLED Reason=None ExitCode=0:15 NodeList=vm";

const fakeRunner = (
  answers: Record<string, CommandResult>,
  calls: Array<{ file: string; args: readonly string[] }> = [],
) =>
  createSlurmCommands(async (file, args) => {
    calls.push({ file, args });
    return answers[file] ?? { exitCode: 0, stdout: "", stderr: "" };
  });

describe("scontrol and sbatch output", () => {
  it("reads a running job's state, node and fields whose keys hold colons and slashes", () => {
    const job = parseScontrolJob(RUNNING)!;
    expect(job).toMatchObject({ jobId: "3", state: "RUNNING", node: "vm", reason: undefined, exitCode: undefined });
    expect(job.fields["AllocNode:Sid"]).toBe("localhost:13448");
    expect(job.fields["TRES"]).toBe("cpu=1,node=1,billing=1");
    expect(job.fields["Command"]).toBe(
      "/work/main/src/training/backends/slurm/job-launcher.py /tmp/x/job_9c290876.json",
    );
  });

  it("reads why a job is pending, and how an ended job ended", () => {
    expect(parseScontrolJob(PENDING)).toMatchObject({ state: "PENDING", reason: "Resources", node: undefined });
    expect(parseScontrolJob(FAILED)).toMatchObject({ state: "FAILED", exitCode: 1, exitSignal: undefined });
    expect(parseScontrolJob(CANCELLED)).toMatchObject({ state: "CANCELLED", exitCode: 0, exitSignal: 15 });
    expect(parseScontrolJob("garbage")).toBeUndefined();
  });

  it("takes the job id from sbatch --parsable", () => {
    expect(parseSbatchParsable("123\n")).toBe("123");
    expect(parseSbatchParsable("45;cluster-a\n")).toBe("45");
    expect(parseSbatchParsable("sbatch: error: whatever")).toBeUndefined();
  });
});

describe("slurm commands", () => {
  it("calls the binaries with argv arrays and tells a forgotten job from an unreachable Slurm", async () => {
    const calls: Array<{ file: string; args: readonly string[] }> = [];
    const forgotten = fakeRunner(
      { scontrol: { exitCode: 1, stdout: "", stderr: "slurm_load_jobs error: Invalid job id specified" } },
      calls,
    );
    expect(await forgotten.show("99")).toBe("unknown");
    expect(calls[0]).toEqual({ file: "scontrol", args: ["-o", "show", "job", "99"] });
    const down = fakeRunner({
      scontrol: {
        exitCode: 1,
        stdout: "",
        stderr: "slurm_load_jobs error: Unable to contact slurm controller (connect failure)",
      },
    });
    await expect(down.show("99")).rejects.toMatchObject({ code: "UPSTREAM" });
  });

  it("submits with --parsable and explains a refusal", async () => {
    const ok = fakeRunner({ sbatch: { exitCode: 0, stdout: "77\n", stderr: "" } });
    expect(await ok.submit(["x.py"], {})).toBe("77");
    const refused = fakeRunner({
      sbatch: { exitCode: 1, stdout: "", stderr: "sbatch: error: invalid partition specified: nope" },
    });
    await expect(refused.submit(["x.py"], {})).rejects.toThrow(/invalid partition specified: nope/);
  });

  it("stops a job by signalling only its batch step, and cancels plainly", async () => {
    const calls: Array<{ file: string; args: readonly string[] }> = [];
    const c = fakeRunner({}, calls);
    await c.signalBatch("5", "TERM");
    await c.cancel("5");
    expect(calls).toEqual([
      { file: "scancel", args: ["--batch", "--signal=TERM", "5"] },
      { file: "scancel", args: ["5"] },
    ]);
  });
});

describe("sbatch arguments from the settings", () => {
  it("passes each setting and each extra option as its own argument, the launcher and its spec last", () => {
    const config = loadConfig(
      {
        RL_BACKEND: "slurm",
        RL_SLURM_PARTITION: "gpu",
        RL_SLURM_ACCOUNT: "ml-team",
        RL_SLURM_TIME_LIMIT: "1-12:00:00",
        RL_SLURM_GPUS: "a100:1",
        RL_SLURM_EXTRA_ARGS: "--cpus-per-task=8   --mem=32G --comment=a;rm",
      },
      tempDir(),
    );
    const files = jobFiles(config.logsDir, config.runConfigsDir, "abcd1234");
    const args = sbatchArgs(config.slurm, { runId: "abcd1234", files, chdir: "/srv/train" });
    expect(args).toEqual(
      expect.arrayContaining([
        "--job-name=rl-abcd1234",
        `--output=${files.output}`,
        "--chdir=/srv/train",
        "--export=ALL",
        "--no-requeue",
        "--partition=gpu",
        "--account=ml-team",
        "--time=1-12:00:00",
        "--gpus=a100:1",
      ]),
    );
    expect(args.slice(-5)).toEqual(["--cpus-per-task=8", "--mem=32G", "--comment=a;rm", JOB_LAUNCHER, files.spec]);
  });

  it("leaves out what is not set, and polls every 5 s by default", () => {
    const config = loadConfig({}, tempDir());
    const args = sbatchArgs(config.slurm, { runId: "r", files: jobFiles("/l", "/c", "r"), chdir: "/t" });
    expect(args.some((a) => /^--(partition|account|time|gpus)=/.test(a))).toBe(false);
    expect(config.slurm).toMatchObject({ extraArgs: [], pollMs: 5000, startWaitMs: 10_000 });
  });

  it("submits requeueable jobs warned before their end with RL_SLURM_REQUEUE, and checks its settings", () => {
    const off = loadConfig({}, tempDir());
    expect(off.slurm).toMatchObject({ requeue: false, signalSeconds: 120, maxRequeues: 3 });
    const on = loadConfig(
      { RL_SLURM_REQUEUE: "true", RL_SLURM_TIME_LIMIT: "4:00:00", RL_SLURM_SIGNAL_SECONDS: "300" },
      tempDir(),
    );
    const args = sbatchArgs(on.slurm, { runId: "r", files: jobFiles("/l", "/c", "r"), chdir: "/t" });
    expect(args).toEqual(expect.arrayContaining(["--requeue", "--signal=B:TERM@300", "--open-mode=append"]));
    expect(args).not.toContain("--no-requeue");
    expect(() => loadConfig({ RL_SLURM_REQUEUE: "maybe" }, tempDir())).toThrow(/RL_SLURM_REQUEUE has a bad value/);
    expect(() => loadConfig({ RL_SLURM_MAX_REQUEUES: "-1" }, tempDir())).toThrow(/RL_SLURM_MAX_REQUEUES/);
    // The warning must come before the end, and leave the trainer its stop grace to save in.
    expect(() =>
      loadConfig({ RL_SLURM_REQUEUE: "1", RL_SLURM_TIME_LIMIT: "2", RL_SLURM_SIGNAL_SECONDS: "120" }, tempDir()),
    ).toThrow(/RL_SLURM_SIGNAL_SECONDS has a bad value: 120 s is not before the end of a job limited to 120 s/);
    expect(() =>
      loadConfig({ RL_SLURM_REQUEUE: "1", RL_SLURM_SIGNAL_SECONDS: "5", RL_STOP_GRACE_SECONDS: "10" }, tempDir()),
    ).toThrow(/RL_SLURM_SIGNAL_SECONDS has a bad value: .*RL_STOP_GRACE_SECONDS/);
  });

  it("reads Slurm's time limits in seconds", () => {
    expect(["90", "5:30", "1:00:00", "1-12", "1-12:30", "2-00:00:05", "UNLIMITED"].map(slurmTimeSeconds)).toEqual([
      5400,
      330,
      3600,
      129_600,
      131_400,
      172_805,
      undefined,
    ]);
  });

  it("names the variable when a Slurm setting is bad", () => {
    expect(() => loadConfig({ RL_SLURM_TIME_LIMIT: "four hours" }, tempDir())).toThrow(/RL_SLURM_TIME_LIMIT/);
    expect(() => loadConfig({ RL_SLURM_PARTITION: "a b" }, tempDir())).toThrow(/RL_SLURM_PARTITION/);
    expect(() => loadConfig({ RL_SLURM_POLL_SECONDS: "0" }, tempDir())).toThrow(/RL_SLURM_POLL_SECONDS/);
  });
});
