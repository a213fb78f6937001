#!/usr/bin/env python3
# rl-chatops in-job launcher: one Slurm batch job runs a training run's processes (stdlib only).
"""Start a run's components in order, with the bot's readiness rules, watch them, and exit with the outcome.

    job-launcher.py SPEC.json

SPEC.json (written by the bot; no secrets in it: keys come through the job's environment):
    run_id, status_path, grace_seconds, ready_timeout_seconds, config_path,
    main (the component whose clean exit ends the run), stop_order [names], step_error_pattern (optional regex),
    forward_signal_to_main (optional: a stop signal goes to the main process at once, so it can save),
    components: [{name, argv, cwd, log, env_unset, ready, may_finish_first}]   in start order

Readiness (as the bot's local backend), by each component's `ready`:
    {"kind": "http", "url": U}                              GET U answers 2xx
    {"kind": "traffic", "status_url": U, "settle_seconds": S}  U shows data (queue_size or current_step > 0), or S passed
    {"kind": "written", "path": P, "settle_seconds": S}     it wrote file P since it started, or S passed
    {"kind": "settle", "settle_seconds": S}                 it stayed alive S seconds
A main component that exits 0 after printing a line matching step_error_pattern is a failure; a component that
may finish first (an environment whose steps are done) exiting 0 leaves the run waiting for the main one.

The status file (status_path) is rewritten atomically at every change, so the bot can read it at any time:
    {state: starting|running|stopping|completed|failed|stopped, node, job_id, restart_count, ready: [...],
     components: {name: {state, pid, exit_code, signal}}, component, exit_code, signal, message, ...}

Exit status: 0 completed, 1 failed, 143 stopped by SIGTERM (scancel --batch --signal=TERM, or a time limit).
On SIGTERM the components are stopped in stop_order: SIGTERM to each process group, SIGKILL after grace_seconds.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import traceback
import urllib.request
from typing import Any, Dict, List, Optional

POLL_SECONDS = 0.2
EXIT_COMPLETED, EXIT_FAILED, EXIT_STOPPED = 0, 1, 143

# Readiness probes go to the node's own loopback: never through an HTTP proxy from the environment.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def log(message: str) -> None:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    print(f"{stamp} job-launcher: {message}", flush=True)


def http_ok(url: str, timeout: float = 1.0) -> bool:
    try:
        with OPENER.open(url, timeout=timeout) as resp:
            return 200 <= resp.status < 300
    except Exception:  # noqa: BLE001 - any failure means "not ready yet"
        return False


def http_json(url: str, timeout: float = 1.5) -> Any:
    try:
        with OPENER.open(url, timeout=timeout) as resp:
            return json.loads(resp.read().decode("utf-8"))
    except Exception:  # noqa: BLE001
        return None


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def kill_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def file_state(path: str) -> Optional[Any]:
    """A file's (inode, size, mtime_ns, ctime_ns), or None when it does not exist: a rewrite changes it."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class Component:
    def __init__(self, spec: Dict[str, Any]):
        self.name: str = spec["name"]
        # A requeued job starts its processes as the run's next attempt (the stack's resume fields), where the spec
        # says how; else the same argv again.
        restarted = slurm_restart_count(os.environ) > 0 and bool(spec.get("restart_argv"))
        self.argv: List[str] = [str(a) for a in spec["restart_argv" if restarted else "argv"]]
        self.restart_env: Dict[str, str] = dict(spec.get("restart_env") or {}) if restarted else {}
        self.cwd: str = spec["cwd"]
        self.log: str = spec["log"]
        self.env_unset: List[str] = list(spec.get("env_unset") or [])
        self.ready_check: Dict[str, Any] = dict(spec.get("ready") or {"kind": "settle", "settle_seconds": 0})
        self.may_finish_first = bool(spec.get("may_finish_first"))
        self.proc: Optional[subprocess.Popen] = None
        self.started_at = 0.0
        # The "written" check's file as it was before the start (file_state), or None when absent.
        self.written_before: Optional[Any] = None
        self.ready = False
        self.handled = False
        self.spawn_error: Optional[str] = None

    def start(self) -> None:
        env = dict(os.environ)
        for key in self.env_unset:
            env.pop(key, None)
        env.update(self.restart_env)
        os.makedirs(os.path.dirname(self.log), exist_ok=True)
        self.started_at = time.monotonic()
        if self.ready_check.get("kind") == "written":
            self.written_before = file_state(str(self.ready_check["path"]))
        # Each component in its own session (process group), as the bot's local backend does, so a stop
        # reaches its children too; the log file is handed straight to it (appended, never truncated).
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                self.argv,
                cwd=self.cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                close_fds=True,
            )

    def poll(self) -> Optional[int]:
        return None if self.proc is None else self.proc.poll()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def exit_code(self) -> Optional[int]:
        rc = self.poll()
        return rc if rc is not None and rc >= 0 else None

    def exit_signal(self) -> Optional[str]:
        rc = self.poll()
        return signal_name(-rc) if rc is not None and rc < 0 else None

    def describe_exit(self) -> str:
        if self.spawn_error:
            return f"{self.name} could not start: {self.spawn_error}"
        sig = self.exit_signal()
        if sig:
            return f"{self.name} was killed by {sig}"
        return f"{self.name} exited with code {self.exit_code()}"

    def view(self) -> Dict[str, Any]:
        if self.spawn_error:
            state = "failed to start"
        elif self.proc is None:
            state = "not started"
        elif self.proc.poll() is not None:
            state = "exited"
        else:
            state = "running" if self.ready else "starting"
        return {
            "state": state,
            "pid": None if self.proc is None else self.proc.pid,
            "exit_code": self.exit_code(),
            "signal": self.exit_signal(),
        }

    def stop(self, grace: float) -> None:
        """SIGTERM the group, SIGKILL after the grace period, then make sure no member outlived it."""
        if self.proc is None:
            return
        pgid = self.proc.pid
        if self.proc.poll() is None:
            kill_group(pgid, signal.SIGTERM)
            deadline = time.monotonic() + grace
            while self.proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            if self.proc.poll() is None:
                log(f"{self.name} ignored SIGTERM for {grace:g} s; killing it")
                kill_group(pgid, signal.SIGKILL)
                self.proc.wait()
        kill_group(pgid, signal.SIGKILL)


class Outcome(Exception):
    """Ends the run: raised with the final state, the component to blame and a message for people."""

    def __init__(self, state: str, component: Optional[Component] = None, message: str = ""):
        super().__init__(message)
        self.state = state
        self.component = component
        self.message = message


class Launcher:
    def __init__(self, spec: Dict[str, Any]):
        self.spec = spec
        self.status_path: str = spec["status_path"]
        self.grace = float(spec.get("grace_seconds", 10))
        self.ready_timeout = float(spec.get("ready_timeout_seconds", 180))
        self.components = [Component(c) for c in spec["components"]]
        self.by_name = {c.name: c for c in self.components}
        self.main: str = str(spec.get("main") or self.components[-1].name)
        self.stop_order: List[str] = list(spec.get("stop_order") or [c.name for c in reversed(self.components)])
        pattern = spec.get("step_error_pattern")
        self.step_error = re.compile(f"^{re.escape(pattern)}") if pattern else None
        self.step_error_offset = 0
        self.step_error_partial = b""
        self.step_error_lines: List[str] = []
        self.stop_signal: Optional[str] = None
        self.status: Dict[str, Any] = {
            "run_id": spec.get("run_id"),
            "job_id": os.environ.get("SLURM_JOB_ID"),
            "node": socket.gethostname().split(".")[0],
            "launcher_pid": os.getpid(),
            "restart_count": slurm_restart_count(os.environ),
            "started_at": time.time(),
            "reached_running": False,
        }

    # --- status file -------------------------------------------------------------------------

    def write(self, **fields: Any) -> None:
        self.status.update(fields)
        self.status["updated_at"] = time.time()
        self.status["ready"] = [c.name for c in self.components if c.ready]
        self.status["components"] = {c.name: c.view() for c in self.components}
        tmp = f"{self.status_path}.tmp"
        os.makedirs(os.path.dirname(self.status_path), exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.status, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.status_path)

    # --- signals ------------------------------------------------------------------------------

    def on_signal(self, number: int, _frame: Any) -> None:
        if self.stop_signal is None:
            self.stop_signal = signal_name(number)
            log(f"received {self.stop_signal}: stopping {' -> '.join(self.stop_order)}")
            self.forward_to_main(number)

    def forward_to_main(self, number: int) -> None:
        """In a requeueable job the signal (the time limit's warning, a preemption) goes to the main process at once, so
        the trainer saves its checkpoint while the others are stopped in order; its stop then waits for it to exit."""
        if not self.spec.get("forward_signal_to_main"):
            return
        comp = self.by_name.get(self.main)
        if comp is not None and comp.proc is not None and comp.alive():
            log(f"forwarding {signal_name(number)} to {comp.name} so it can save")
            kill_group(comp.proc.pid, number)

    def check_stop(self) -> None:
        if self.stop_signal is not None:
            raise Outcome("stopped", None, f"The job was stopped ({self.stop_signal}).")

    # --- readiness ----------------------------------------------------------------------------

    def done_before_ready(self, comp: Component) -> bool:
        """It may end cleanly while the run starts: an environment with few steps, or the main process when it is the
        last to start (a one-process stack's short run, judged by watch() once the run is running)."""
        ends_run = comp.name == self.main and comp is self.components[-1]
        return (comp.may_finish_first or ends_run) and comp.poll() == 0

    def is_ready(self, comp: Component) -> bool:
        # A component that may finish first can be done before a probe sees it work.
        if self.done_before_ready(comp):
            return True
        check = comp.ready_check
        if check.get("kind") == "http":
            return http_ok(str(check["url"]))
        if check.get("kind") == "traffic":
            status = http_json(str(check["status_url"]))
            if isinstance(status, dict):
                queue = status.get("queue_size") or 0
                step = status.get("current_step") or 0
                if (isinstance(queue, (int, float)) and queue > 0) or (isinstance(step, (int, float)) and step > 0):
                    return True
        if check.get("kind") == "written":
            now = file_state(str(check["path"]))
            if now is not None and now != comp.written_before:
                return True
        return time.monotonic() - comp.started_at >= float(check.get("settle_seconds") or 0)

    def check_started_alive(self) -> None:
        for c in self.components:
            if c.proc is not None and c.poll() is not None:
                if self.done_before_ready(c):
                    continue
                # A fast trainer can hit its step error before the env counts as ready: say so, not just "exited 0".
                errors = self.step_errors() if c.name == self.main and c.exit_code() == 0 else []
                if errors:
                    raise Outcome("failed", c, f"The {c.name} reported a step error and stopped: {errors[-1]}")
                raise Outcome("failed", c, f"{c.describe_exit()} while the run was starting.")

    def wait_ready(self, comp: Component) -> None:
        deadline = time.monotonic() + self.ready_timeout
        while True:
            self.check_stop()
            self.check_started_alive()
            if self.is_ready(comp):
                comp.ready = True
                log(f"{comp.name} is ready")
                self.write()
                return
            if time.monotonic() >= deadline:
                raise Outcome(
                    "failed",
                    comp,
                    f"The {comp.name} was not ready after {round(self.ready_timeout)} s. "
                    "Check its log (/rl logs), or raise RL_READY_TIMEOUT_SECONDS.",
                )
            time.sleep(POLL_SECONDS)

    # --- the run ------------------------------------------------------------------------------

    def step_errors(self) -> List[str]:
        """The main log's step error lines: all of them, read on from where the last call stopped (the whole log counts,
        however much follows an error, and no line is read twice)."""
        comp = self.by_name.get(self.main)
        if comp is None or self.step_error is None:
            return []
        try:
            with open(comp.log, "rb") as f:
                f.seek(self.step_error_offset)
                while True:
                    chunk = f.read(1024 * 1024)
                    if not chunk:
                        break
                    lines = (self.step_error_partial + chunk).split(b"\n")
                    self.step_error_partial = lines.pop()[-65536:]
                    self.step_error_offset += len(chunk)
                    for raw in lines:
                        line = raw.decode("utf-8", errors="replace").strip()
                        if self.step_error.match(line):
                            self.step_error_lines.append(line)
        except OSError:
            pass
        return self.step_error_lines

    def watch(self) -> None:
        while True:
            self.check_stop()
            # The main process first, then the stop order: a trainer that ended wins over the api going down with it,
            # and over an environment that failed after it (its inference server went away with the trainer).
            for name in [self.main] + [n for n in self.stop_order if n != self.main]:
                comp = self.by_name.get(name)
                if comp is None or comp.handled or comp.poll() is None:
                    continue
                comp.handled = True
                clean = comp.exit_code() == 0
                self.write()
                if comp.may_finish_first and clean:
                    log(f"{name} finished; waiting for the {self.main}")
                    continue
                if name == self.main and clean:
                    errors = self.step_errors()
                    if errors:
                        raise Outcome("failed", comp, f"The {name} reported a step error and stopped: {errors[-1]}")
                    raise Outcome("completed", comp, "Training complete.")
                raise Outcome("failed", comp, f"{comp.describe_exit()}.")
            time.sleep(POLL_SECONDS)

    def run(self) -> int:
        self.write(state="starting")
        try:
            for comp in self.components:
                self.check_stop()
                try:
                    comp.start()
                except OSError as e:
                    comp.spawn_error = str(e)
                    raise Outcome("failed", comp, f"{comp.describe_exit()} while the run was starting.") from None
                log(f"started {comp.name} (pid {comp.proc.pid if comp.proc else '?'})")
                self.write()
                self.wait_ready(comp)
            self.write(state="running", reached_running=True, running_at=time.time())
            log("all components are ready; the run is running")
            self.watch()
            raise Outcome("failed", None, "the launcher stopped watching without an outcome")
        except Outcome as outcome:
            return self.finish(outcome)
        except Exception:  # noqa: BLE001 - last resort: record why, stop what runs
            log(traceback.format_exc())
            return self.finish(Outcome("failed", None, f"The job launcher crashed: {sys.exc_info()[1]}"))

    def finish(self, outcome: Outcome) -> int:
        self.write(state="stopping")
        # Ignore further TERMs while stopping: the stop order must complete (SIGKILL still ends us).
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for name in self.stop_order:
            comp = self.by_name.get(name)
            if comp is not None and comp.alive():
                log(f"stopping {name}")
            if comp is not None:
                comp.stop(self.grace)
        comp = outcome.component
        self.write(
            state=outcome.state,
            component=comp.name if comp else None,
            exit_code=comp.exit_code() if comp else None,
            signal=comp.exit_signal() if comp else None,
            message=outcome.message,
            ended_at=time.time(),
        )
        log(f"{outcome.state}: {outcome.message}")
        return {"completed": EXIT_COMPLETED, "stopped": EXIT_STOPPED}.get(outcome.state, EXIT_FAILED)


def slurm_restart_count(environ: Any) -> int:
    """How many times Slurm requeued this job before this start (0 on its first): the bot tells starts apart by it."""
    text = str(environ.get("SLURM_RESTART_COUNT", "") or "")
    return int(text) if text.isdigit() else 0


def spec_path(argv: List[str], environ: Dict[str, str]) -> Optional[str]:
    """One spec; or, in a job array, one spec per task, and this task's by SLURM_ARRAY_TASK_ID."""
    if len(argv) == 2:
        return argv[1]
    task = environ.get("SLURM_ARRAY_TASK_ID", "")
    if len(argv) < 2 or not task.isdigit() or int(task) >= len(argv) - 1:
        return None
    return argv[1 + int(task)]


def main(argv: List[str]) -> int:
    path = spec_path(argv, dict(os.environ))
    if path is None:
        print("usage: job-launcher.py SPEC.json, or in a job array SPEC0.json SPEC1.json ... (one per task)", file=sys.stderr)
        return 2
    with open(path, encoding="utf-8") as f:
        spec = json.load(f)
    launcher = Launcher(spec)
    signal.signal(signal.SIGTERM, launcher.on_signal)
    signal.signal(signal.SIGINT, launcher.on_signal)
    log(f"run {spec.get('run_id')} on {launcher.status['node']} (job {launcher.status['job_id']})")
    return launcher.run()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
