"""Tracking: verl's fan-out of each step's metrics to the configured loggers (`trainer.logger`).

`console` prints `step:N - key:value - ...`; `file` writes JSON lines `{"step": N, "data": {...}}` to
$VERL_FILE_LOGGER_PATH, else $VERL_FILE_LOGGER_ROOT (default ".")/<project>/<experiment>.jsonl, opened "wb": the file
is truncated at every start, so a resumed run's file holds only that attempt's steps (and with
VERL_FILE_LOGGER_PATH its folder must exist: it is not created). `wandb` is accepted and skipped (no W&B here).
An unknown backend fails an assertion, as in verl.
"""

import json
import math
import numbers
import os
import pprint


class FileLogger:
    def __init__(self, project_name: str, experiment_name: str) -> None:
        self.filepath = os.getenv("VERL_FILE_LOGGER_PATH", None)
        if self.filepath is None:
            root_path = os.path.expanduser(os.getenv("VERL_FILE_LOGGER_ROOT", "."))
            directory = os.path.join(root_path, project_name)
            os.makedirs(directory, exist_ok=True)
            self.filepath = os.path.join(directory, f"{experiment_name}.jsonl")
        print(f"Creating file logger at {os.path.abspath(self.filepath)}", flush=True)
        self.fp = open(self.filepath, "wb", buffering=0)

    def log(self, data: dict, step: int) -> None:
        # orjson's compact form; it writes NaN and infinities as null.
        clean = {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in data.items()}
        self.fp.write(json.dumps({"step": step, "data": clean}, separators=(",", ":")).encode() + b"\n")

    def finish(self) -> None:
        self.fp.close()


class LocalLogger:
    def log(self, data: dict, step: int) -> None:
        parts = [f"step:{step}"] + [f"{k}:{pprint.pformat(v)}" for k, v in data.items() if isinstance(v, numbers.Number)]
        print(" - ".join(parts), flush=True)

    def finish(self) -> None:
        pass


class Tracking:
    supported_backend = ["wandb", "mlflow", "swanlab", "vemlp_wandb", "tensorboard", "console", "clearml", "trackio", "file"]

    def __init__(self, project_name: str, experiment_name: str, default_backend, config=None) -> None:
        if isinstance(default_backend, str):
            default_backend = [default_backend]
        for backend in default_backend:
            assert backend in self.supported_backend, f"{backend} is not supported"
        self.logger = {}
        if "wandb" in default_backend:
            print("wandb: skipped (the miniature has no W&B)", flush=True)
        if "console" in default_backend:
            self.logger["console"] = LocalLogger()
        if "file" in default_backend:
            self.logger["file"] = FileLogger(project_name, experiment_name)

    def log(self, data: dict, step: int) -> None:
        for logger_instance in self.logger.values():
            logger_instance.log(data=data, step=step)

    def finish(self) -> None:
        for logger_instance in self.logger.values():
            logger_instance.finish()
