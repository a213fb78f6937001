"""Metric sinks."""

from pathlib import Path

from prime_rl.configs.shared import WandbConfig
from prime_rl.utils.config import BaseConfig


class FileMonitorConfig(BaseConfig):
    path: Path = Path("metrics.jsonl")
    """JSON-lines file, relative to the component's output_dir."""


class MonitorsConfig(BaseConfig):
    wandb: WandbConfig | None = None
    """Log to Weights & Biases; off by default (`--monitors.wandb` turns it on)."""

    file: FileMonitorConfig | None = FileMonitorConfig()
    """Log metrics to `<output_dir>/metrics.jsonl` and episodes to `<output_dir>/rollouts`; on by default."""
