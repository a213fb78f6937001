"""`rl @ rl.toml [@ more.toml] [--a.b value ...]` (here `python3 -m prime_rl.entrypoints.rl ...` with src/ and
packages/prime-rl-configs/src on PYTHONPATH): prime-rl's RL launcher.

Reads RLConfig (../utils/cli.py, ../utils/schema.py, and RLConfig's validators below), refuses a run directory that
holds a previous run's artifacts unless `--resume`/`--resume.step N` or `--clean` (FileExistsError, exit 1), finds
the resume step, removes rollouts past it, writes the resolved sub-configs to `<run_dir>/configs/`, makes
`logs/attempt_<n>/`, starts the training process with its logs there, shows the orchestrator's log, and exits 0
when training finished, 1 when it failed. SIGTERM: "Received SIGTERM, terminating all processes...", the children
are terminated, exit 1 (prime-rl's handler). `--dry-run` stops after writing the configs.
Miniature-only: one child process does the orchestrator's and the trainer's work (prime-rl starts inference,
orchestrator and trainer), and there is no inference server (`[inference]` is read and written out, nothing more).
"""

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any, Dict, List

import prime_rl
from prime_rl.utils.cli import ConfigFileError, format_errors, parse, print_error_box_and_exit
from prime_rl.utils.pathing import (
    clean_future_steps,
    create_attempt_log_dir,
    get_ckpt_dir,
    log,
    resolve_latest_ckpt_step,
    validate_run_dir,
)
from prime_rl.utils.schema import read_schema
from prime_rl.utils.validation import propagate_shared_fields

TRAINER_CONFIG = "trainer.json"
ORCHESTRATOR_CONFIG = "orchestrator.json"
INFERENCE_CONFIG = "inference.json"


def configs_folder() -> str:
    for p in prime_rl.__path__:
        if os.path.isdir(os.path.join(p, "configs")):
            return os.path.join(p, "configs")
    raise ModuleNotFoundError("No module named 'prime_rl.configs' (put packages/prime-rl-configs/src on PYTHONPATH)")


def _resume_errors(resume: Any, loc: tuple) -> List[tuple]:
    if resume is None:
        return []
    if resume["step"] is not None and resume["dir"] is not None:
        return [(loc, "Value error, resume.step and resume.dir are mutually exclusive — the step is taken from the directory name", None)]
    if resume["dir"] is not None and not re.fullmatch(r"step_\d+", Path(resume["dir"]).name):
        return [(loc, f"Value error, resume.dir must point at a checkpoint step directory (`.../step_<N>`), got '{resume['dir']}'", None)]
    return []


def load_config(args: List[str]) -> Dict[str, Any]:
    """RLConfig as model_dump(mode="json") would give it; a bad config prints pydantic_config's box and exits 1."""
    schema = read_schema(configs_folder())
    try:
        raw = parse(schema, "RLConfig", args)
        try:
            raw = propagate_shared_fields(raw)
        except ValueError as e:
            raise ConfigFileError(format_errors("RLConfig", [((), f"Value error, {e}", None)]))
        cfg, errors = schema.validate("RLConfig", raw, ())
        if not errors:
            errors = _resume_errors(cfg["resume"], ("resume",))
        if errors:
            raise ConfigFileError(format_errors("RLConfig", errors))
        run = cfg["run"]
        if run["name"] is None:
            envs = "+".join(dict.fromkeys(s["name"] or s["env"]["taskset"]["id"] for s in cfg["orchestrator"]["train"]["source"]))
            run["name"] = f"{envs or 'no-env'}--{cfg['trainer']['model']['name'].split('/')[-1]}--{uuid.uuid4().hex[:8]}".lower()
        if run["dir"] is None:
            run["dir"] = run["name"]
        run_dir = str(Path(cfg["output_dir"]) / run["dir"])
        for sub, name in ((cfg["trainer"], "TrainerConfig"), (cfg["orchestrator"], "OrchestratorConfig")):
            section = raw.get("trainer" if name == "TrainerConfig" else "orchestrator", {})
            if "output_dir" in section and sub["output_dir"] != run_dir:
                raise ConfigFileError(format_errors("RLConfig", [((), (
                    f"Value error, {name}.output_dir ({sub['output_dir']}) conflicts with the run directory ({run_dir}). "
                    "Under the rl entrypoint, sub-config output directories are derived from output_dir / run.name — "
                    "set those instead."), None)]))
            sub["output_dir"] = run_dir
            if cfg["resume"] is not None:
                sub["resume"] = dict(cfg["resume"])
        for wandb in (cfg["monitors"]["wandb"], cfg["trainer"]["monitors"]["wandb"], cfg["orchestrator"]["monitors"]["wandb"]):
            if wandb is not None and wandb["name"] is None:
                wandb["name"] = run["name"]
        return cfg
    except ConfigFileError as e:
        print_error_box_and_exit(e.message)
        raise


def write_subconfigs(cfg: Dict[str, Any], config_dir: Path) -> None:
    config_dir.mkdir(parents=True, exist_ok=True)
    parts = [(TRAINER_CONFIG, cfg["trainer"]), (ORCHESTRATOR_CONFIG, cfg["orchestrator"])]
    if cfg["inference"] is not None:
        parts.append((INFERENCE_CONFIG, cfg["inference"]))
    for name, part in parts:
        (config_dir / name).write_text(json.dumps(part, indent=2) + "\n")


def _stop(processes: List[subprocess.Popen]) -> None:
    for p in processes:
        if p.poll() is None:
            p.terminate()
    for p in processes:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()


def rl_local(cfg: Dict[str, Any], run_dir: Path) -> None:
    config_dir = run_dir / "configs"
    write_subconfigs(cfg, config_dir)
    log("INFO", f"Wrote subconfigs to {config_dir}")
    if cfg["dry_run"]:
        log("SUCCESS", "Dry run complete. To start an RL run locally, remove --dry-run from your command.")
        return
    log_dir = create_attempt_log_dir(run_dir)
    processes: List[subprocess.Popen] = []

    def sigterm_handler(signum: int, frame: Any) -> None:
        log("WARNING", "Received SIGTERM, terminating all processes...")
        _stop(processes)
        sys.exit(1)

    signal.signal(signal.SIGTERM, sigterm_handler)
    log("INFO", "Starting RL run")
    orchestrator_log = log_dir / "orchestrator.log"
    orchestrator_log.touch()
    trainer = subprocess.Popen(
        [sys.executable, "-m", "prime_rl.entrypoints.toy_worker", str(config_dir), str(log_dir)],
        stdout=open(log_dir / "trainer.log", "w"),
        stderr=subprocess.STDOUT,
    )
    processes.append(trainer)
    log("SUCCESS", "Startup complete. Showing orchestrator logs...")
    offset = 0
    while True:
        done = trainer.poll() is not None
        with open(orchestrator_log, encoding="utf-8") as f:
            f.seek(offset)
            chunk = f.read()
            offset = f.tell()
        if chunk:
            sys.stdout.write(chunk)
            sys.stdout.flush()
        if done:
            break
        time.sleep(0.1)
    if trainer.returncode != 0:
        log("ERROR", f"Trainer failed with exit code {trainer.returncode}")
        _stop(processes)
        sys.exit(1)
    log("SUCCESS", "Training finished!")


def rl(cfg: Dict[str, Any]) -> None:
    os.environ.setdefault("PRL_RUN_ID", uuid.uuid4().hex)
    os.environ["PRL_RUN_NAME"] = cfg["run"]["name"]
    run_dir = Path(cfg["output_dir"]) / cfg["run"]["dir"]
    resuming = cfg["resume"] is not None
    clean = cfg["clean"] and not os.environ.get("NEVER_CLEAN")
    ckpt_output_dir = Path(cfg["ckpt"]["output_dir"]) if cfg["ckpt"] and cfg["ckpt"]["output_dir"] else None
    validate_run_dir(run_dir, output_dir=Path(cfg["output_dir"]), resuming=resuming, clean=clean, ckpt_output_dir=ckpt_output_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    resume_step = None
    if resuming:
        if cfg["resume"]["dir"] is not None:
            resume_step = int(Path(cfg["resume"]["dir"]).name.removeprefix("step_"))
        else:
            resume_step = cfg["resume"]["step"]
            if resume_step is None:
                resume_step = resolve_latest_ckpt_step(get_ckpt_dir(ckpt_output_dir or run_dir))
    if resume_step is not None:
        log("INFO", f"Resuming from step {resume_step}, cleaning future rollouts and broadcasts")
        clean_future_steps(run_dir, resume_step)
    else:
        log("INFO", "Training from scratch, cleaning any stale rollouts and broadcasts")
        clean_future_steps(run_dir, -1)
    rl_local(cfg, run_dir)


def main() -> None:
    rl(load_config(sys.argv[1:]))


if __name__ == "__main__":
    main()
