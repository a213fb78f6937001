"""The miniature's training process (prime-rl runs an orchestrator and a trainer; this one does both's work):
`python3 -m prime_rl.entrypoints.toy_worker <run_dir>/configs <log_dir>`, started by the rl entry point.

Step s (from 0, or from the resume step): sample orchestrator.batch_size rollouts (groups of group_size) from the toy
policy, reward them, write `rollouts/step_s/train/{all,effective}/traces.jsonl`, one update with group-mean
advantages; the orchestrator's and the trainer's metrics go to their `monitors.file` (by default both append to
`<run_dir>/metrics.jsonl`: two records per step, `{"step": s, "time": ..., ...}`). With a checkpoint config,
`checkpoints/step_N/` (N = steps done) every `ckpt.interval` steps and at the end, the oldest past `keep_last`
removed; a resume loads step_N and continues at step N, appending to metrics.jsonl (steps logged after step_N by
the stopped attempt appear again). No SIGTERM handler of its own (the launcher's terminates it).
Miniature-only: RL_DEMO_STEP_SECONDS (default 1.0 s a step), RL_DEMO_FAULT=collapse (the reward inverts after half
the steps); the checkpoint is `trainer/toy_state.json` and `orchestrator/progress.json`.
"""

import json
import math
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

from prime_rl.toy_policy import STRATEGIES, Policy, answer_for, problems, question, reward_for, step_seconds
from prime_rl.utils.pathing import get_all_ckpt_steps, get_ckpt_dir, get_step_path

# The toy policy needs far bigger steps than a 1e-6 learning rate: its Adam step is lr times this.
DEMO_LR_SCALE = 1e5


class MetricsFile:
    def __init__(self, output_dir: Path, monitors: Dict[str, Any]) -> None:
        self.file = None
        if monitors.get("file") is not None:
            path = output_dir / monitors["file"]["path"]
            path.parent.mkdir(parents=True, exist_ok=True)
            self.file = open(path, "a", buffering=1)

    def log(self, metrics: Dict[str, Any], step: int) -> None:
        if self.file is not None:
            clean = {k: v for k, v in metrics.items() if not (isinstance(v, float) and not math.isfinite(v))}
            self.file.write(json.dumps({"step": step, "time": time.time(), **clean}) + "\n")


def resume_step(trainer: Dict[str, Any], ckpt_root: Path) -> Optional[int]:
    resume = trainer["resume"]
    if resume is None:
        return None
    if resume["dir"] is not None:
        return int(Path(resume["dir"]).name.removeprefix("step_"))
    if resume["step"] is not None:
        return resume["step"]
    steps = get_all_ckpt_steps(get_ckpt_dir(ckpt_root))
    return steps[-1] if steps else None


def save(ckpt_root: Path, step: int, policy: Policy, orch_progress: Dict[str, Any], keep_last: Optional[int], out) -> None:
    folder = get_step_path(get_ckpt_dir(ckpt_root), step)
    (folder / "trainer").mkdir(parents=True, exist_ok=True)
    (folder / "orchestrator").mkdir(parents=True, exist_ok=True)
    (folder / "trainer" / "toy_state.json").write_text(json.dumps(policy.to_json()))
    (folder / "orchestrator" / "progress.json").write_text(json.dumps({"step": step, **orch_progress}))
    print(f"INFO    Saved checkpoint to {folder}", file=out, flush=True)
    if keep_last:
        for old in get_all_ckpt_steps(get_ckpt_dir(ckpt_root))[:-keep_last]:
            shutil.rmtree(get_step_path(get_ckpt_dir(ckpt_root), old), ignore_errors=True)


def write_traces(run_dir: Path, step: int, subset: str, records: List[Dict[str, Any]]) -> None:
    path = run_dir / "rollouts" / f"step_{step}" / "train" / subset / "traces.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")


def main(config_dir: Path, log_dir: Path) -> None:
    trainer = json.loads((config_dir / "trainer.json").read_text())
    orch = json.loads((config_dir / "orchestrator.json").read_text())
    run_dir = Path(trainer["output_dir"])
    ckpt = trainer["ckpt"]
    ckpt_root = Path(ckpt["output_dir"]) if ckpt and ckpt["output_dir"] else run_dir
    out = open(log_dir / "orchestrator.log", "a", buffering=1)
    policy = Policy()
    progress = {"total_rollouts": 0, "total_tokens": 0}
    step = resume_step(trainer, ckpt_root) or 0
    if step:
        source = Path(trainer["resume"]["dir"]) if trainer["resume"]["dir"] else get_step_path(get_ckpt_dir(ckpt_root), step)
        if not source.is_dir():
            raise FileNotFoundError(f"Checkpoint step {step} not found at {source}")
        policy = Policy.from_json(json.loads((source / "trainer" / "toy_state.json").read_text()))
        progress.update({k: v for k, v in json.loads((source / "orchestrator" / "progress.json").read_text()).items() if k != "step"})
        print(f"INFO    Resuming from checkpoint {source} (step {step})", file=out, flush=True)
    trainer_metrics = MetricsFile(run_dir, trainer["monitors"])
    orch_metrics = MetricsFile(run_dir, orch["monitors"])
    max_steps = trainer["max_steps"]
    group = orch["group_size"]
    n_problems = max(orch["batch_size"] // group, 1)
    env = orch["train"]["source"][0]
    env_name = env["name"] or env["env"]["taskset"]["id"]
    lr = trainer["optim"]["lr"] * DEMO_LR_SCALE
    saved = None
    while max_steps is None or step < max_steps:
        start = time.time()
        rng = random.Random(f"{orch['seed']}:{step}")
        samples, everything, effective, rewards, logps = [], [], [], [], []
        for k, (x, y) in enumerate(problems(orch["seed"], step, n_problems)):
            rows = []
            for _ in range(group):
                i, logp = policy.sample(x, y, rng, orch["train"]["sampling"]["temperature"])
                answer = answer_for(STRATEGIES[i], x, y)
                rows.append((i, answer, reward_for(answer, x, y, step + 1, max_steps or step + 1)))
                logps.append(logp)
            baseline = sum(r for *_, r in rows) / group
            for i, answer, r in rows:
                samples.append((x, y, i, r - baseline))
                rewards.append(r)
                record = {
                    "example_id": k, "task": env_name, "step": step,
                    "prompt": [{"role": "user", "content": question(x, y)}],
                    "completion": [{"role": "assistant", "content": f"The answer is {answer}."}],
                    "answer": str(x + y), "reward": r, "advantage": r - baseline,
                }
                everything.append(record)
                if any(rr != rows[0][2] for *_, rr in rows):
                    effective.append(record)
        write_traces(run_dir, step, "all", everything)
        write_traces(run_dir, step, "effective", effective)
        tokens = len(everything) * 12
        progress["total_rollouts"] += len(everything)
        progress["total_tokens"] += tokens
        mean_reward = sum(rewards) / len(rewards)
        grad_norm = policy.update(samples, lr)
        time.sleep(step_seconds(1.0))
        step_time = time.time() - start
        orch_metrics.log({
            f"train/agg/all/reward/mean": mean_reward,
            f"train/agg/effective/reward/mean": (sum(r["reward"] for r in effective) / len(effective)) if effective else 0.0,
            f"train/{env_name}/all/reward/mean": mean_reward,
            "progress/tokens": tokens, "progress/rollouts": len(everything), "progress/tasks": n_problems,
            "progress/total_tokens": progress["total_tokens"], "progress/total_rollouts": progress["total_rollouts"],
            "time/step": step_time,
        }, step)
        trainer_metrics.log({
            "loss/mean": -sum(a for *_, a in samples) / len(samples), "entropy/all/mean": -sum(logps) / len(logps),
            "optim/lr": trainer["optim"]["lr"], "optim/grad_norm": grad_norm, "time/step": step_time,
        }, step)
        print(f"INFO    Step {step} | Time: {step_time:.2f}s | Reward: {mean_reward:.4f} | Rollouts: {len(everything)}", file=out, flush=True)
        step += 1
        if ckpt is not None and ckpt["interval"] and step % ckpt["interval"] == 0:
            save(ckpt_root, step, policy, progress, ckpt["keep_last"], out)
            saved = step
    if ckpt is not None and saved != step and step > 0:
        save(ckpt_root, step, policy, progress, ckpt["keep_last"], out)
    print("SUCCESS Orchestrator finished.", file=out, flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
