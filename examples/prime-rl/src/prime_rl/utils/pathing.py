"""Run-directory layout and rules, as prime-rl's utils/pathing.py has them: `logs/attempt_<n>/` per launch (with a
`logs/latest` link), `checkpoints/step_<N>/`, `rollouts/step_<N>/`, the refusal to reuse a run directory that holds
artifacts unless resuming or cleaning, and the removal of rollouts past the step a run resumes from."""

import os
import shutil
from pathlib import Path
from typing import List, Optional

LAUNCHER_ARTIFACTS = ("configs", "rl.sbatch", "sft.sbatch", "job_*.log")


def log(level: str, message: str) -> None:
    print(f"{level:<7} {message}", flush=True)


def create_attempt_log_dir(run_dir: Path) -> Path:
    logs_dir = run_dir / "logs"
    logs_dir.mkdir(parents=True, exist_ok=True)
    attempts = (
        int(p.name.removeprefix("attempt_")) for p in logs_dir.glob("attempt_*") if p.name.removeprefix("attempt_").isdigit()
    )
    attempt_dir = logs_dir / f"attempt_{1 + max(attempts, default=0)}"
    attempt_dir.mkdir()
    tmp_link = logs_dir / f".{attempt_dir.name}"
    if tmp_link.is_symlink() or tmp_link.exists():
        tmp_link.unlink()
    os.symlink(attempt_dir.name, tmp_link)
    os.replace(tmp_link, logs_dir / "latest")
    return attempt_dir


def get_ckpt_dir(output_dir: Path) -> Path:
    return output_dir / "checkpoints"


def get_rollout_dir(output_dir: Path) -> Path:
    return output_dir / "rollouts"


def get_step_path(path: Path, step: int) -> Path:
    return path / f"step_{step}"


def get_all_ckpt_steps(ckpt_dir: Path) -> List[int]:
    return sorted(int(d.name.split("_")[-1]) for d in ckpt_dir.glob("step_*"))


def resolve_latest_ckpt_step(ckpt_dir: Path) -> Optional[int]:
    steps = get_all_ckpt_steps(ckpt_dir)
    if not steps:
        log("WARNING", f"No checkpoints found in {ckpt_dir}. Starting from scratch.")
        return None
    log("INFO", f"Found latest checkpoint in {ckpt_dir}: {steps[-1]}")
    return steps[-1]


def has_run_artifacts(run_dir: Path) -> bool:
    if not run_dir.exists():
        return False
    launcher = {entry for pattern in LAUNCHER_ARTIFACTS for entry in run_dir.glob(pattern)}
    return any(entry not in launcher for entry in run_dir.iterdir())


def validate_run_dir(run_dir: Path, *, output_dir: Path, resuming: bool, clean: bool, ckpt_output_dir: Optional[Path]) -> None:
    if resuming:
        return
    if clean:
        if not run_dir.resolve().is_relative_to(output_dir.resolve()):
            raise ValueError(f"clean requires the run directory ({run_dir}) to remain under output_dir ({output_dir})")
        for d in [run_dir] + ([ckpt_output_dir] if ckpt_output_dir is not None and ckpt_output_dir != run_dir else []):
            if d.exists():
                log("WARNING", f"Cleaning existing directory: {d}")
                shutil.rmtree(d)
        return
    blocked = None
    if has_run_artifacts(run_dir):
        blocked = f"Run directory '{run_dir}' already contains artifacts from a previous run."
    elif ckpt_output_dir is not None and ckpt_output_dir != run_dir:
        ckpt = get_ckpt_dir(ckpt_output_dir)
        if ckpt.exists() and any(ckpt.iterdir()):
            blocked = f"Checkpoint directory '{ckpt_output_dir}' already contains checkpoints from a previous run."
    if blocked:
        raise FileExistsError(
            f"{blocked} "
            f"To resume the latest step of the previous run, pass --resume (or --resume.step N). "
            f"To delete the existing directory and start fresh, set clean=true or --clean via CLI. "
            f"Otherwise use a unique run name (run.name or --run.name via CLI) or output_dir for this run."
        )


def clean_future_steps(output_dir: Path, resume_step: int) -> None:
    directory = get_rollout_dir(output_dir)
    stale = [step for step in get_all_ckpt_steps(directory) if step > resume_step]
    if stale:
        log("INFO", f"Deleting {len(stale)} step directories in {directory} ({','.join(map(str, stale))})")
        for step in stale:
            shutil.rmtree(get_step_path(directory, step))
