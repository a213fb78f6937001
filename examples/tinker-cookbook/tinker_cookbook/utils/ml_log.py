"""Metric logging: config.json once, one `{"step": i, ...metrics}` line per step in metrics.jsonl, a console table."""

import json
import logging
import os
import sys
from pathlib import Path
from typing import Any, Dict, Optional

import chz

logger = logging.getLogger(__name__)


def dump_config(config: Any) -> Any:
    """A JSON-ready copy of a (chz) config, nested configs as dicts."""
    if chz.is_chz(config) and not isinstance(config, type):
        return {k: dump_config(getattr(config, k)) for k in chz.asdict(config)}
    if isinstance(config, dict):
        return {k: dump_config(v) for k, v in config.items()}
    if isinstance(config, (list, tuple)):
        return [dump_config(v) for v in config]
    if isinstance(config, (str, int, float, bool)) or config is None:
        return config
    return str(config)


class Logger:
    """Writes log_dir/config.json and appends to log_dir/metrics.jsonl (like the real JsonLogger)."""

    def __init__(self, log_dir: str):
        self.log_dir = Path(log_dir)
        self.log_dir.mkdir(parents=True, exist_ok=True)

    def log_hparams(self, config: Any) -> None:
        with open(self.log_dir / "config.json", "w") as f:
            json.dump(dump_config(config), f, indent=2)

    def log_metrics(self, metrics: Dict[str, Any], step: Optional[int] = None) -> None:
        record: Dict[str, Any] = {"step": step} if step is not None else {}
        record.update(metrics)
        with open(self.log_dir / "metrics.jsonl", "a") as f:
            f.write(json.dumps(record) + "\n")
        logger.info("Wrote metrics to %s/metrics.jsonl", self.log_dir)
        self._print_table(metrics, step)

    @staticmethod
    def _print_table(metrics: Dict[str, Any], step: Optional[int]) -> None:
        # Stands in for the real PrettyPrintLogger's rich table on stdout.
        width = max((len(k) for k in metrics), default=0)
        lines = [f"Step {step}"] + [
            f"  {k.ljust(width)}  {v:.6g}" if isinstance(v, float) else f"  {k.ljust(width)}  {v}"
            for k, v in sorted(metrics.items())
        ]
        print("\n".join(lines), flush=True)

    def get_logger_url(self) -> Optional[str]:
        return None

    def close(self) -> None:
        sys.stdout.flush()


def setup_logging(log_dir: str, wandb_project: Optional[str] = None, wandb_name: Optional[str] = None,
                  config: Any = None) -> Logger:
    """The JSON logger; W&B is never used by the miniature (one line says so when a project is set)."""
    if wandb_project:
        if not os.environ.get("WANDB_API_KEY"):
            print("WARNING: WANDB_API_KEY environment variable not set. Skipping W&B logging (the miniature never uses W&B).", flush=True)
        else:
            print(f"WARNING: the miniature does not log to W&B; skipping project {wandb_project!r}.", flush=True)
    ml_logger = Logger(log_dir)
    if config is not None:
        ml_logger.log_hparams(config)
    return ml_logger
