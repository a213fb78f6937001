"""The RL loop on the toy model: sample groups, score them, REINFORCE with a group-mean baseline, log, checkpoint.

Shaped like the real tinker_cookbook/rl/train.py sync loop: resumes from the last checkpoints.jsonl
record with a state_path (weights + optimizer), or starts from load_checkpoint_path's weights with a
fresh optimizer (a fork), or from scratch; step i logs {"step": i, ...} to metrics.jsonl; a checkpoint
named f"{i:06d}" (batch i) is saved at the start of step i when i % save_every == 0 (not on the first
step of a run), and one named "final" (batch = last step + 1) at the end.

Miniature-only: SIGTERM (a Slurm job's warning before its time limit, a preemption, a stop) ends the step under way,
saves a checkpoint named after the next step (batch = steps done) and exits 143, so a restart loses nothing. The
real loop has no handler: there a restart goes back to the last save_every checkpoint.
"""

import asyncio
import json
import logging
import math
import os
import random
import signal
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

import chz

from tinker_cookbook import checkpoint_utils, demo_service
from tinker_cookbook.demo_model import STRATEGIES, Policy, answer_for
from tinker_cookbook.recipes.math_rl.arithmetic_env import ArithmeticDatasetBuilder, question
from tinker_cookbook.utils import ml_log

logger = logging.getLogger(__name__)

# The toy model needs far bigger steps than a LoRA: its Adam step is learning_rate times this.
DEMO_LR_SCALE = 2000.0


@chz.chz
class Config:
    """Configuration of the RL loop (the recipe's CLIConfig builds one)."""

    learning_rate: float
    dataset_builder: ArithmeticDatasetBuilder
    model_name: str
    recipe_name: str
    max_tokens: int
    log_path: str = chz.field(munger=lambda _, s: os.path.expanduser(s))
    eval_every: int = 20
    save_every: int = 20
    load_checkpoint_path: Optional[str] = None
    renderer_name: Optional[str] = None
    wandb_project: Optional[str] = None
    wandb_name: Optional[str] = None
    kl_penalty_coef: float = 0.0
    loss_fn: str = "importance_sampling"
    num_substeps: int = 1
    lora_rank: int = 32
    temperature: float = 1.0
    max_steps: Optional[int] = None
    rollout_json_export: bool = True
    demo_step_seconds: float = 1.0
    demo_learning_rate: Optional[float] = None
    demo_fault: Optional[str] = None


def parse_fault(fault: Optional[str]) -> Tuple[Optional[str], int]:
    """("error_in_step" | "crash_in_step" | None, step) from demo_fault."""
    if not fault:
        return None, -1
    kind, _, step = fault.partition(":")
    if kind not in ("error_in_step", "crash_in_step") or not step.lstrip("-").isdigit():
        raise ValueError(f"Unknown demo_fault {fault!r}: expected error_in_step:K or crash_in_step:K")
    return kind, int(step)


def rollout_metrics(groups: List[Tuple[int, int, List[int], List[float]]], prefix: str) -> Dict[str, float]:
    """The real env/all/* trajectory metrics for one-turn groups (x, y, answers, rewards)."""
    rewards = [r for _, _, _, rs in groups for r in rs]
    answers = [a for _, _, ans, _ in groups for a in ans]
    ob_tokens = [len(question(x, y)) // 3 + 1 for x, y, ans, _ in groups for _ in ans]
    ac_tokens = [len(str(a)) + 1 for a in answers]  # digits plus the stop token
    n = max(len(rewards), 1)
    n_groups = max(len(groups), 1)
    good = sum(1 for *_, rs in groups if all(r > 0.5 for r in rs))
    bad = sum(1 for *_, rs in groups if all(r <= 0.5 for r in rs))
    return {
        f"{prefix}ac_tokens_per_turn": sum(ac_tokens) / n,
        f"{prefix}ob_tokens_per_turn": sum(ob_tokens) / n,
        f"{prefix}turns_per_episode": 1.0,
        f"{prefix}total_episodes": len(rewards),
        f"{prefix}total_turns": len(rewards),
        f"{prefix}total_ac_tokens": sum(ac_tokens),
        f"{prefix}total_ob_tokens": sum(ob_tokens),
        f"{prefix}reward/total": sum(rewards) / n,
        f"{prefix}format": 1.0,
        f"{prefix}correct": sum(rewards) / n,
        f"{prefix}by_group/frac_mixed": (len(groups) - good - bad) / n_groups,
        f"{prefix}by_group/frac_all_good": good / n_groups,
        f"{prefix}by_group/frac_all_bad": bad / n_groups,
    }


def response_text(answer: int) -> str:
    """What the toy model "writes" for an answer, in math_rl's boxed format."""
    return f"The answer is \\boxed{{{answer}}}."


def rollout_summaries(i_batch: int, groups: List[Tuple[int, int, List[int], List[float]]]) -> List[Dict[str, Any]]:
    """One record per trajectory, as the real rollout_logging.serialize_rollout_summaries makes them (schema 1);
    a one-turn episode has one step, whose logs carry the question and the response (an Env's logs)."""
    records = []
    for group_idx, (x, y, answers, rewards) in enumerate(groups):
        ob_len = len(question(x, y)) // 3 + 1
        for traj_idx, (answer, reward) in enumerate(zip(answers, rewards)):
            step = {
                "step_idx": 0,
                "ob_len": ob_len,
                "ac_len": len(str(answer)) + 1,
                "reward": reward,
                "episode_done": True,
                "metrics": {"format": 1.0, "correct": reward},
                "logs": {"question": question(x, y), "response": response_text(answer)},
            }
            records.append({
                "schema_version": 1,
                "split": "train",
                "iteration": i_batch,
                "group_idx": group_idx,
                "traj_idx": traj_idx,
                "tags": ["arithmetic"],
                "sampling_client_step": i_batch,
                "total_reward": reward,
                "final_reward": 0.0,
                "trajectory_metrics": {},
                "steps": [step],
                "final_ob_len": ob_len + len(str(answer)) + 1,
            })
    return records


def write_rollout_summaries(log_path: str, i_batch: int, records: List[Dict[str, Any]]) -> None:
    """<log_path>/iteration_NNNNNN/train_rollout_summaries.jsonl, rewritten whole (the real store's write_rollouts)."""
    folder = os.path.join(log_path, f"iteration_{i_batch:06d}")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "train_rollout_summaries.jsonl"), "w", encoding="utf-8") as f:
        f.write("".join(json.dumps(r) + "\n" for r in records))


def evaluate(policy: Policy, dataset: ArithmeticDatasetBuilder) -> Dict[str, float]:
    """Greedy answers on the fixed test set (the real RLTestSetEvaluator's test/ metrics)."""
    groups = []
    for x, y in dataset.test_set():
        choice = policy.greedy(x, y)
        answer = answer_for(STRATEGIES[choice], x, y)
        groups.append((x, y, [answer], [1.0 if answer == x + y else 0.0]))
    return rollout_metrics(groups, "test/env/all/")


def run_step(config: Config, policy: Policy, i_batch: int) -> Dict[str, Any]:
    """Sample groups_per_batch groups of group_size answers, then one policy-gradient update per substep; the
    groups' rollouts are exported as the real loop does when rollout_json_export is on."""
    rng = random.Random(f"sample:{config.dataset_builder.seed}:{i_batch}")
    groups = []
    samples = []
    logprobs = []
    for x, y in config.dataset_builder.get_batch(i_batch):
        answers, rewards, choices = [], [], []
        for _ in range(config.dataset_builder.group_size):
            choice, logprob = policy.sample(x, y, rng, config.temperature)
            answer = answer_for(STRATEGIES[choice], x, y)
            answers.append(answer)
            choices.append(choice)
            rewards.append(1.0 if answer == x + y else 0.0)
            logprobs.append(logprob)
        baseline = sum(rewards) / len(rewards)
        samples.extend((x, y, c, r - baseline) for c, r in zip(choices, rewards))
        groups.append((x, y, answers, rewards))
    metrics: Dict[str, Any] = rollout_metrics(groups, "env/all/")
    if config.rollout_json_export:
        write_rollout_summaries(config.log_path, i_batch, rollout_summaries(i_batch, groups))
    lr = config.demo_learning_rate if config.demo_learning_rate is not None else config.learning_rate * DEMO_LR_SCALE
    substeps = max(config.num_substeps, 1)
    chunk = math.ceil(len(samples) / substeps)
    for k in range(substeps):
        policy.adam_step(policy.policy_gradient(samples[k * chunk:(k + 1) * chunk]), lr)
    # Sampling and training see the same weights here, so the sample/train KL is 0.
    metrics["optim/kl_sample_train_v1"] = 0.0
    metrics["optim/kl_sample_train_v2"] = 0.0
    metrics["optim/entropy"] = -sum(logprobs) / max(len(logprobs), 1)
    return metrics


def stop_on_sigterm() -> asyncio.Event:
    """An event set by SIGTERM (a second one changes nothing: the save under way goes on)."""
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    return stop


async def pause(seconds: float, stop: asyncio.Event) -> None:
    """The step's time, cut short by SIGTERM."""
    try:
        await asyncio.wait_for(stop.wait(), timeout=seconds)
    except asyncio.TimeoutError:
        pass


async def main(config: Config) -> None:
    """Train from start_batch (0, or the last checkpoint's batch) to the end of the dataset or max_steps."""
    fault, fault_step = parse_fault(config.demo_fault)
    ml_logger = ml_log.setup_logging(
        log_dir=config.log_path, wandb_project=config.wandb_project, wandb_name=config.wandb_name, config=config
    )
    resume_info = checkpoint_utils.get_last_checkpoint(config.log_path)
    start_batch = resume_info.batch if resume_info and resume_info.batch is not None else 0

    service_client = demo_service.ServiceClient(demo_service.store_dir(config.log_path))
    if resume_info:
        training_client = service_client.create_training_client_from_state_with_optimizer(resume_info.state_path)
        logger.info(f"Resumed training from {resume_info.state_path}")
    elif config.load_checkpoint_path:
        training_client = service_client.create_training_client_from_state(config.load_checkpoint_path)
        logger.info(f"Loaded weights from {config.load_checkpoint_path}")
    else:
        training_client = service_client.create_lora_training_client(config.model_name, rank=config.lora_rank)

    num_batches = len(config.dataset_builder)
    end_batch = min(config.max_steps, num_batches) if config.max_steps is not None else num_batches
    logger.info(f"Will train on {end_batch} batches")

    policy = training_client.policy
    stop = stop_on_sigterm()
    for i_batch in range(start_batch, end_batch):
        t_start = time.time()
        metrics: Dict[str, Any] = {
            "progress/batch": i_batch,
            "optim/lr": config.learning_rate,
            "progress/done_frac": (i_batch + 1) / end_batch,
        }
        if i_batch > start_batch and config.save_every > 0 and i_batch % config.save_every == 0:
            checkpoint_utils.save_checkpoint(
                training_client, name=f"{i_batch:06d}", log_path=config.log_path,
                loop_state={"batch": i_batch}, kind="both",
            )
        if config.eval_every > 0 and i_batch % config.eval_every == 0:
            metrics.update(evaluate(policy, config.dataset_builder))
        if fault == "crash_in_step" and fault_step == i_batch:
            # A hard death (like the OOM killer): no traceback, no cleanup, no final checkpoint.
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(137)
        if fault == "error_in_step" and fault_step == i_batch:
            raise RuntimeError(f"demo_fault: injected error in step {i_batch}")
        metrics.update(run_step(config, policy, i_batch))
        await pause(config.demo_step_seconds, stop)
        metrics["time/total"] = time.time() - t_start
        ml_logger.log_metrics(metrics, step=i_batch)
        if stop.is_set() and i_batch + 1 < end_batch:
            checkpoint_utils.save_checkpoint(
                training_client, name=f"{i_batch + 1:06d}", log_path=config.log_path,
                loop_state={"batch": i_batch + 1}, kind="both",
            )
            ml_logger.close()
            logger.info(f"SIGTERM: saved checkpoint {i_batch + 1:06d} after step {i_batch}; exiting")
            raise SystemExit(143)

    if start_batch < end_batch:
        checkpoint_utils.save_checkpoint(
            training_client, name="final", log_path=config.log_path,
            loop_state={"batch": end_batch}, kind="both",
        )
    else:
        logger.info("Training was already complete; nothing to do")
    ml_logger.close()
    logger.info("Training completed successfully")
