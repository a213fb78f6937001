"""The orchestrator's config: what it samples, from which environments, in which batches."""

from pathlib import Path

from pydantic import Field

from prime_rl.configs.monitors import MonitorsConfig
from prime_rl.configs.shared import CheckpointConfig, ResumeConfig
from prime_rl.utils.config import BaseConfig


class TasksetConfig(BaseConfig):
    id: str = "toy-arithmetic"
    """Environment id."""


class SourceEnvConfig(BaseConfig):
    taskset: TasksetConfig = TasksetConfig()


class SourceConfig(BaseConfig):
    name: str | None = None
    """Source name; defaults to the taskset id."""

    env: SourceEnvConfig = SourceEnvConfig()

    @property
    def resolved_name(self) -> str:
        return self.name or self.env.taskset.id


class SamplingConfig(BaseConfig):
    temperature: float = Field(1.0, ge=0)
    """Sampling temperature."""

    max_completion_tokens: int | None = None
    """Longest completion; None leaves it to the server."""


class OrchestratorTrainConfig(BaseConfig):
    sampling: SamplingConfig = SamplingConfig()

    source: list[SourceConfig] = [SourceConfig()]
    """Training environments."""


class OrchestratorModelConfig(BaseConfig):
    name: str = "Qwen/Qwen3-0.6B"
    """Model served for sampling."""


class OrchestratorConfig(BaseConfig):
    model: OrchestratorModelConfig = OrchestratorModelConfig()

    train: OrchestratorTrainConfig = OrchestratorTrainConfig()

    batch_size: int = Field(128, ge=1)
    """Rollouts per step."""

    group_size: int = Field(16, ge=1)
    """Rollouts per example (the advantage baseline's group)."""

    max_steps: int | None = None
    """Steps to run; None runs until stopped."""

    seed: int = 42
    """Sampling seed."""

    output_dir: Path = Path("outputs")
    """Set by the rl entry point to the run directory."""

    ckpt: CheckpointConfig | None = None

    resume: ResumeConfig | None = None

    monitors: MonitorsConfig = MonitorsConfig()
