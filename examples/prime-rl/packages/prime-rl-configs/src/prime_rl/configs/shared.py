"""Config pieces the RL launcher, trainer and orchestrator share."""

import re
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from prime_rl.utils.config import BaseConfig


class RunConfig(BaseConfig):
    name: str | None = None
    """Run name; auto-generated as `<envs>--<model>--<short-id>` when unset. Resuming a run needs its name."""

    dir: str | None = None
    """Run directory name under output_dir; defaults to the run name."""


class ResumeConfig(BaseConfig):
    """Resume from a checkpoint. A bare `--resume` resumes from the latest."""

    step: int | None = Field(None, ge=1)
    """Checkpoint step to resume from; None takes the latest."""

    dir: Path | None = None
    """Another run's checkpoint step directory (`.../checkpoints/step_N`) to start this run from (a fork)."""

    @model_validator(mode="after")
    def validate_step_xor_dir(self):
        if self.step is not None and self.dir is not None:
            raise ValueError(
                "resume.step and resume.dir are mutually exclusive — the step is taken from the directory name"
            )
        if self.dir is not None and not re.fullmatch(r"step_\d+", self.dir.name):
            raise ValueError(f"resume.dir must point at a checkpoint step directory (`.../step_<N>`), got '{self.dir}'")
        return self


class CheckpointConfig(BaseConfig):
    output_dir: Path | None = None
    """Where `checkpoints/` goes; None puts it in the run directory."""

    interval: int | None = None
    """Save every this many steps; None saves only at the end of training."""

    keep_last: int | None = Field(None, ge=1)
    """Checkpoints to keep; None keeps all."""


class WandbConfig(BaseConfig):
    project: str | None = "prime-rl"
    """W&B project."""

    name: str | None = None
    """W&B run name; inherits run.name."""

    offline: bool | None = False
    """Log offline."""


class LogConfig(BaseConfig):
    level: str | None = None
    """Log level (debug, info, warning, ...); None reads PRIME_LOG_LEVEL, else info."""

    json_logging: bool = False
    """Log JSON lines instead of text."""


class SingleNodeDeploymentConfig(BaseConfig):
    type: Literal["single_node"] = "single_node"
    """Deployment kind."""

    gpus_per_node: int = 8
    """GPUs on the node."""

    num_train_gpus: int = 1
    """GPUs for the trainer."""

    num_infer_gpus: int = 1
    """GPUs for inference."""
