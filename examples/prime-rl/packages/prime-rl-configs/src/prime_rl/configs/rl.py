"""RLConfig: what `rl @ rl.toml [--a.b value ...]` reads. The trainer and orchestrator sections are required (even
empty); shared fields fill them (prime_rl.utils.validation); the run directory is `output_dir / run.name`."""

import uuid
from pathlib import Path
from typing import Any

from pydantic import Field, model_validator

from prime_rl.configs.inference import InferenceConfig
from prime_rl.configs.monitors import FileMonitorConfig
from prime_rl.configs.orchestrator import OrchestratorConfig
from prime_rl.configs.shared import (
    CheckpointConfig,
    LogConfig,
    ResumeConfig,
    RunConfig,
    SingleNodeDeploymentConfig,
    WandbConfig,
)
from prime_rl.configs.trainer import TrainerConfig
from prime_rl.utils.config import BaseConfig
from prime_rl.utils.validation import propagate_shared_fields


class SharedModelConfig(BaseConfig):
    name: str = "Qwen/Qwen3-0.6B"
    """Model for the trainer, orchestrator and inference."""


class SharedMonitorsConfig(BaseConfig):
    wandb: WandbConfig | None = None
    """Shared W&B config, for trainer and orchestrator."""

    file: FileMonitorConfig | None = None
    """Shared JSON-lines sink; the trainer's and orchestrator's own are on by default."""


class RLConfig(BaseConfig):
    trainer: TrainerConfig

    orchestrator: OrchestratorConfig

    inference: InferenceConfig | None = None
    """Inference server; None starts none (a server you run yourself)."""

    run: RunConfig = Field(default_factory=RunConfig)
    """Run metadata; run.name names the run directory."""

    output_dir: Path = Path("outputs")
    """Folder of runs: each writes to output_dir / run.name."""

    clean: bool = False
    """Delete the run directory before starting. Needed to reuse a run directory with artifacts when not resuming."""

    log: LogConfig = LogConfig()

    ckpt: CheckpointConfig | None = None
    """Shared checkpointing; None saves no checkpoints."""

    resume: ResumeConfig | None = None
    """Resume the run named by run.name from a checkpoint; None starts from scratch."""

    monitors: SharedMonitorsConfig = SharedMonitorsConfig()

    model: SharedModelConfig | None = None
    """Shared model; None leaves the sub-configs' own."""

    max_steps: int | None = None
    """Shared step count; None leaves the sub-configs' own."""

    deployment: SingleNodeDeploymentConfig = SingleNodeDeploymentConfig()

    dry_run: bool = False
    """Only validate and write the resolved configs, then exit."""

    @property
    def run_dir(self) -> Path:
        return self.output_dir / self.run.dir

    @model_validator(mode="before")
    @classmethod
    def auto_setup_shared_configs(cls, data: Any) -> Any:
        return propagate_shared_fields(data)

    @model_validator(mode="after")
    def auto_setup_run_dir(self):
        if self.run.name is None:
            envs = "+".join(dict.fromkeys(s.resolved_name for s in self.orchestrator.train.source))
            model = self.trainer.model.name.split("/")[-1]
            self.run.name = f"{envs or 'no-env'}--{model}--{uuid.uuid4().hex[:8]}".lower()
        if self.run.dir is None:
            self.run.dir = self.run.name
        for sub in (self.trainer, self.orchestrator):
            if "output_dir" in sub.model_fields_set and sub.output_dir != self.run_dir:
                raise ValueError(
                    f"{type(sub).__name__}.output_dir ({sub.output_dir}) conflicts with the run directory "
                    f"({self.run_dir}). Under the rl entrypoint, sub-config output directories are derived from "
                    "output_dir / run.name — set those instead."
                )
            sub.output_dir = self.run_dir
        return self

    @model_validator(mode="after")
    def auto_setup_resume(self):
        if self.resume is not None:
            self.trainer.resume = self.resume.model_copy()
            self.orchestrator.resume = self.resume.model_copy()
        return self

    @model_validator(mode="after")
    def auto_setup_run_identity(self):
        for wandb in (self.monitors.wandb, self.trainer.monitors.wandb, self.orchestrator.monitors.wandb):
            if wandb is not None and wandb.name is None:
                wandb.name = self.run.name
        return self
