"""The math RL recipe: `python3 -m tinker_cookbook.recipes.math_rl.train key=value ...` (chz command line).

Field names and defaults follow the real recipe's CLIConfig; fields named demo_* exist only in the
miniature (pacing and fault injection).
"""

import asyncio
import logging
from datetime import datetime
from typing import Optional

import chz

from tinker_cookbook import cli_utils
from tinker_cookbook.recipes.math_rl.arithmetic_env import ArithmeticDatasetBuilder
from tinker_cookbook.rl.train import Config, main

logger = logging.getLogger(__name__)


@chz.chz
class CLIConfig:
    """Simple command-line configuration for RL training."""

    # Model configuration
    model_name: str = "Qwen/Qwen3.5-9B"
    lora_rank: int = 32
    renderer_name: str | None = None
    load_checkpoint_path: str | None = None

    # Environment configuration (the miniature has only "arithmetic")
    env: str = "arithmetic"
    seed: int = 0

    # Training hyperparameters
    group_size: int = 4
    groups_per_batch: int = 100
    learning_rate: float = 1e-5
    max_tokens: int = 5
    temperature: float = 1.0
    kl_penalty_coef: float = 0.0
    num_substeps: int = 1

    # Logging configuration
    log_path: str | None = None
    wandb_project: str | None = None
    wandb_name: str | None = None
    compute_post_kl: bool = False

    eval_every: int = 20
    save_every: int = 20
    base_url: str | None = None

    behavior_if_log_dir_exists: cli_utils.LogdirBehavior = "ask"

    loss_fn: str = "importance_sampling"
    max_steps: int | None = None

    # Miniature only
    demo_step_seconds: float = chz.field(default=1.0, doc="seconds each step takes (stands in for GPU time)")
    demo_learning_rate: float | None = chz.field(default=None, doc="toy Adam step size (default learning_rate * 2000)")
    demo_n_batches: int = chz.field(default=50, doc="batches in the toy dataset (steps when max_steps is None)")
    demo_fault: str | None = chz.field(default=None, doc="error_in_step:K (traceback, exit 1) or crash_in_step:K (exit 137)")


def build_config(cli_config: CLIConfig) -> Config:
    """The RL loop's Config from the command line, with the real recipe's run name and default log path."""
    if cli_config.env != "arithmetic":
        raise ValueError(f"Unknown environment: {cli_config.env}")
    model_name = cli_config.model_name.replace("/", "-")
    run_name = (
        f"{cli_config.env}-{model_name}-{cli_config.lora_rank}rank-{cli_config.learning_rate}lr-"
        f"{cli_config.group_size}group-{cli_config.groups_per_batch}batch-{cli_config.loss_fn}-"
        f"seed{cli_config.seed}-{datetime.now().strftime('%Y-%m-%d-%H-%M')}"
    )
    log_path = cli_config.log_path if cli_config.log_path is not None else f"/tmp/tinker-examples/math_rl/{run_name}"
    # Fields the RL loop's Config shares with the command line, by name.
    shared = {
        name: getattr(cli_config, name)
        for name in (
            "learning_rate", "model_name", "renderer_name", "lora_rank", "max_tokens", "temperature",
            "wandb_project", "load_checkpoint_path", "kl_penalty_coef", "num_substeps", "eval_every",
            "save_every", "loss_fn", "max_steps", "demo_step_seconds", "demo_learning_rate", "demo_fault",
        )
    }
    dataset_builder = ArithmeticDatasetBuilder(
        batch_size=cli_config.groups_per_batch,
        group_size=cli_config.group_size,
        model_name_for_tokenizer=cli_config.model_name,
        renderer_name=cli_config.renderer_name,
        n_batches=cli_config.demo_n_batches,
        seed=cli_config.seed,
    )
    wandb_name = cli_config.wandb_name if cli_config.wandb_name is not None else run_name
    return Config(
        dataset_builder=dataset_builder, recipe_name="recipe_math_rl", wandb_name=wandb_name, log_path=log_path, **shared
    )


async def cli_main(cli_config: CLIConfig) -> None:
    """Check the log directory (delete / resume / ask / raise), then train."""
    config = build_config(cli_config)
    cli_utils.check_log_dir(config.log_path, behavior_if_exists=cli_config.behavior_if_log_dir_exists)
    await main(config)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    cli_config = chz.entrypoint(CLIConfig)
    asyncio.run(cli_main(cli_config))
