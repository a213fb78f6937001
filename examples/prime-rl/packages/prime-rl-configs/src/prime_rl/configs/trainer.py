"""The trainer's config."""

from pathlib import Path

from pydantic import Field

from prime_rl.configs.monitors import MonitorsConfig
from prime_rl.configs.shared import CheckpointConfig, ResumeConfig
from prime_rl.utils.config import BaseConfig


class ModelConfig(BaseConfig):
    name: str = "Qwen/Qwen3-0.6B"
    """Model to train (Hub id or folder)."""

    seq_len: int = 2048
    """Longest packed sequence."""


class OptimizerConfig(BaseConfig):
    lr: float = Field(1e-6, gt=0)
    """Learning rate."""

    weight_decay: float = 0.01
    """Weight decay."""

    max_norm: float | None = 1.0
    """Gradient clipping norm; None does not clip."""


class TrainerConfig(BaseConfig):
    model: ModelConfig = ModelConfig()

    optim: OptimizerConfig = OptimizerConfig()

    max_steps: int | None = None
    """Steps to train; None trains until stopped."""

    output_dir: Path = Path("outputs")
    """Set by the rl entry point to the run directory."""

    ckpt: CheckpointConfig | None = None
    """Checkpointing; None saves none."""

    resume: ResumeConfig | None = None
    """Set by the rl entry point from the top-level resume."""

    monitors: MonitorsConfig = MonitorsConfig()
