"""BaseEnv, BaseEnvConfig and the environment CLI: a standard-library miniature of
atroposlib.envs.base.

CLI (what the bot runs):
    python ENV.py serve    [--config run.yaml] [--env.FIELD V ...] [--openai.FIELD V ...] [--slurm] [--testing]
    python ENV.py process  [same flags]   # no trainer: total_steps groups -> JSONL file
    python ENV.py evaluate [same flags]   # one evaluation pass, prints eval/percent_correct
Precedence: command-line flag > YAML (--config) > the class's config_init().

Exit codes: 0 done; 1 runtime failure (run-api or inference endpoint unreachable for
DEMO_UNREACHABLE_SECONDS (default 30), HTTP error in process mode, bad batch settings);
2 usage or config error (unknown flag, invalid value, unreadable YAML).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
import traceback
from abc import ABC, abstractmethod
from enum import Enum
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, TypedDict, Union

from atroposlib._config_model import ConfigModel, Field, FieldInfo, ValidationError, parse_cli_value
from atroposlib.envs.server_handling.server_manager import (
    APIServerConfig,
    HTTPCallError,
    HTTPUnreachable,
    InferenceError,
    InferenceUnreachable,
    ServerBaseline,
    ServerManager,
    http_json,
)
from atroposlib.type_definitions import Item, Message

# Only names the real atroposlib.envs.base has (tests/test_public_surface.py checks it).
__all__ = [
    "APIServerConfig",
    "BaseEnv",
    "BaseEnvConfig",
    "EvalHandlingEnum",
    "Field",
    "ScoredDataGroup",
    "ScoredDataItem",
    "ServerBaseline",
    "ServerManager",
]

ENV_NAMESPACE = "env"
OPENAI_NAMESPACE = "openai"


def _unreachable_seconds() -> float:
    try:
        return float(os.environ.get("DEMO_UNREACHABLE_SECONDS", "30"))
    except ValueError:
        return 30.0


class ScoredDataGroup(TypedDict, total=False):
    tokens: List[List[int]]
    masks: List[List[int]]
    scores: List[float]
    advantages: Optional[List[List[float]]]
    ref_logprobs: Optional[List[List[float]]]
    messages: Optional[List[List[Message]]]
    generation_params: Optional[Dict[str, Any]]
    inference_logprobs: Optional[List[List[float]]]
    group_overrides: Optional[Dict]
    overrides: Optional[List[Dict]]
    images: Optional[Any]


class ScoredDataItem(TypedDict, total=False):
    tokens: List[int]
    masks: List[int]
    scores: float
    advantages: Optional[List[float]]
    ref_logprobs: Optional[List[float]]
    messages: Optional[List[Message]]
    group_overrides: Optional[Dict]
    overrides: Optional[Dict]
    images: Optional[Any]


SCORED_GROUP_KEYS = (
    "tokens",
    "masks",
    "scores",
    "advantages",
    "ref_logprobs",
    "messages",
    "generation_params",
    "inference_logprobs",
    "group_overrides",
    "overrides",
    "images",
)


class EvalHandlingEnum(Enum):
    """How training workers behave while an evaluation runs."""

    STOP_TRAIN = "STOP_TRAIN"
    LIMIT_TRAIN = "LIMIT_TRAIN"
    NONE = "NONE"


class BaseEnvConfig(ConfigModel):
    """Basic env configuration (the fields and defaults of atroposlib's BaseEnvConfig)."""

    group_size: int = Field(default=4, description="How many responses are grouped together for scoring")
    max_num_workers: int = Field(
        default=-1, description="Maximum number of workers to use, -1 calculates from max_num_workers_per_node"
    )
    max_eval_workers: int = Field(default=16, description="Maximum number of workers to use for evaluation")
    max_num_workers_per_node: int = Field(default=8, description="Maximum number of workers to use per node")
    steps_per_eval: int = Field(default=100, description="Number of steps to take before evaluating")
    max_token_length: int = Field(default=2048, description="Maximum token length used in generations")
    eval_handling: EvalHandlingEnum = Field(default=EvalHandlingEnum.STOP_TRAIN, description="How to handle evaluations")
    eval_limit_ratio: float = Field(default=0.5, description="Ratio of training workers to limit during evals")
    inference_weight: float = Field(
        default=1.0, description="Inference weight, set to -1 to ignore it if you're doing something special here."
    )
    batch_size: int = Field(
        default=-1, description="Batch size for training, will be set by the trainer and passed in via the API"
    )
    max_batches_offpolicy: int = Field(default=3, description="Maximum number of batches to have in queue.")
    tokenizer_name: str = Field(
        default="NousResearch/DeepHermes-3-Llama-3-3B-Preview", description="Hugging Face tokenizer to use."
    )
    use_wandb: bool = Field(default=True, description="Whether to use wandb")
    rollout_server_url: str = Field(default="http://localhost:8000", description="URL of the rollout server")
    total_steps: int = Field(default=1000, description="Total number of steps to run")
    wandb_name: Optional[str] = Field(default=None, description="Name to be grouped by in wandb")
    num_rollouts_to_keep: int = Field(default=32, description="Number of rollouts to display on wandb")
    num_rollouts_per_group_for_logging: int = Field(
        default=1, description="Number of rollouts per group to keep for logging. If -1, keep all rollouts"
    )
    ensure_scores_are_not_same: bool = Field(
        default=True, description="Ensure that the scores are not the same, should usually be True"
    )
    data_path_to_save_groups: Optional[str] = Field(
        default=None, description="Path to save the groups, if set, will write groups to this jsonl"
    )
    data_dir_to_save_evals: Optional[str] = Field(default=None, description="Directory to save evaluation results")
    min_items_sent_before_logging: int = Field(
        default=2, description="Minimum number of items sent before logging, if 0 or less, logs every time"
    )
    include_messages: bool = Field(
        default=False, description="Whether to include messages in the output transmitted to the trainer"
    )
    min_batch_allocation: Optional[float] = Field(
        default=None, description="Minimum proportion of a batch this environment should be allocated (0.0-1.0)"
    )
    worker_timeout: float = Field(default=600, description="Timeout for a a task, in seconds, if -1, no timeout")
    thinking_mode: bool = Field(default=False, description="Whether the model is prompted to think before answering")
    reasoning_effort: Optional[str] = Field(default=None, description="Reasoning effort hint (low, medium, high)")
    max_reasoning_tokens: Optional[int] = Field(
        default=None, ge=1024, le=32000, description="Maximum tokens for reasoning (1024-32000)"
    )
    custom_thinking_prompt: Optional[str] = Field(default=None, description="Custom system prompt for thinking mode")


class _UsageError(Exception):
    """Bad command line or config: exit code 2."""


class _FatalRuntimeError(Exception):
    """A failure the environment cannot recover from: exit code 1."""


def _mask_key(key: Optional[str]) -> str:
    if not key:
        return repr(key)
    return "'***'" if len(key) <= 8 else f"'{key[:3]}***'"


def _describe_servers(servers: List[APIServerConfig]) -> str:
    parts = []
    for s in servers:
        parts.append(
            f"APIServerConfig(model_name={s.model_name!r}, base_url={s.base_url!r}, api_key={_mask_key(s.api_key)}, "
            f"server_type={s.server_type!r}, timeout={s.timeout})"
        )
    return "[" + ", ".join(parts) + "]"


def _die(what: str) -> None:
    print(f"demo fault injected: {what}", file=sys.stderr, flush=True)
    os._exit(1)


def _seconds_since_process_start() -> float:
    """How long this process has run (its start as /proc records it), so a fault's time includes the imports."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            started_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        return max(0.0, uptime - started_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def _exit_later(seconds: float, what: str) -> None:
    timer = threading.Timer(max(0.0, seconds), _die, args=(what,))
    timer.daemon = True
    timer.start()


def _arm_demo_fault() -> None:
    """Demo only (not in the real library), standing in for an environment that dies during its start-up (a failing
    setup, a bad setting found at registration, a failing first step): DEMO_ENV_FAULT=exit_after:S makes the process
    exit 1 S seconds after it started; exit_at_first_group exits where its first group would be sent (checked where
    groups are sent); exit_after_first_group:S (armed there too) S seconds after its first group reached the
    trajectory API."""
    raw = os.environ.get("DEMO_ENV_FAULT", "")
    if raw.startswith("exit_after:"):
        seconds = float(raw.split(":", 1)[1])
        _exit_later(seconds - _seconds_since_process_start(), f"environment exits {seconds} s after it started")


class BaseEnv(ABC):
    """An Atropos environment: a data loader that rolls out items against an
    inference server, scores them and ships groups to the trajectory API."""

    name: Optional[str] = None
    env_config_cls: type = BaseEnvConfig

    def __init__(
        self,
        config: BaseEnvConfig,
        server_configs: Union[ServerBaseline, List[APIServerConfig]],
        slurm: bool = False,
        testing: bool = False,
    ):
        self.config = config
        self.server = ServerManager(server_configs, slurm=slurm, testing=testing)
        self.tokenizer = _load_tokenizer(config.tokenizer_name)
        self.slurm = slurm
        self.testing = testing
        self.curr_step = 0
        self.env_id: Optional[int] = None
        self.wandb_prepend: Optional[str] = None
        self.max_token_len = -1
        self.checkpoint_dir = ""
        self.checkpoint_interval = -1
        self.items_sent_this_step = 0
        self.groups_sent = 0
        self.percent_correct_buffer: List[float] = []
        self.process_mode = False
        self.status_dict: Dict[str, Any] = {}
        self._last_api_success = time.monotonic()
        self.jsonl_writer = None
        if self.config.data_path_to_save_groups is not None:
            self._open_jsonl_writer()

    # -- output file (process mode, or serve mode when a path is set) ---------
    def _open_jsonl_writer(self) -> None:
        path = self.config.data_path_to_save_groups
        assert path is not None
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        original = path
        counter = 1
        while os.path.exists(path):
            p = Path(original)
            path = str(p.with_stem(f"{p.stem}_{counter}"))
            counter += 1
        if path != original:
            print(f"Changed data path to {path} because {original} already exists.", flush=True)
        self.config.data_path_to_save_groups = path
        self.jsonl_writer = open(path, "w", encoding="utf-8")

    # -- hooks an environment implements ---------------------------------------
    @classmethod
    def config_init(cls) -> Tuple[BaseEnvConfig, Union[ServerBaseline, List[APIServerConfig]]]:
        """Default configuration: the config class's defaults and a ServerBaseline, as in the real class."""
        return cls.env_config_cls(), ServerBaseline()

    async def setup(self) -> None:
        """Load data, seed random generators, ... Required, as in the real class (not abstract there either)."""
        raise NotImplementedError("Setup method must be implemented in subclass")

    @abstractmethod
    async def get_next_item(self) -> Item:
        """The next item to roll out (None when the data is exhausted)."""

    async def collect_trajectory(self, item: Item) -> Tuple[Optional[ScoredDataItem], List[Item]]:
        raise NotImplementedError("collect_trajectory or collect_trajectories must be implemented in a subclass")

    async def collect_trajectories(self, item: Item) -> Tuple[Optional[ScoredDataGroup], List[Item]]:
        """Roll out one group for `item`; the default calls collect_trajectory group_size times."""
        results = await asyncio.gather(*(self.collect_trajectory(item) for _ in range(self.config.group_size)))
        group: ScoredDataGroup = {k: [] for k in ("tokens", "masks", "scores", "messages")}  # type: ignore[misc]
        backlog: List[Item] = []
        for scored, more in results:
            if scored is None:
                continue
            group["tokens"].append(scored["tokens"])
            group["masks"].append(scored["masks"])
            group["scores"].append(scored["scores"])
            if scored.get("messages") is not None:
                group["messages"].append(scored["messages"])  # type: ignore[union-attr]
            backlog.extend(more)
        return group, backlog

    async def postprocess_histories(self, trajectories: Optional[ScoredDataGroup]) -> Optional[ScoredDataGroup]:
        return trajectories

    @abstractmethod
    async def evaluate(self, *args: Any, **kwargs: Any) -> None:
        """Run an evaluation pass; abstract in the real BaseEnv, so every environment implements it."""

    async def cleanup(self) -> None:
        """Optional per-item cleanup."""

    async def wandb_log(self, wandb_metrics: Optional[Dict[str, Any]] = None) -> None:
        """The demo has no wandb: metrics are printed as one JSON line instead."""
        metrics = dict(wandb_metrics or {})
        if self.percent_correct_buffer:
            metrics["train/percent_correct"] = sum(self.percent_correct_buffer) / len(self.percent_correct_buffer)
            self.percent_correct_buffer = []
        if not metrics:
            return
        if self.wandb_prepend is not None and not self.process_mode:
            metrics = {f"{self.wandb_prepend}_{k}": v for k, v in metrics.items()}
        print(f"metrics (step {self.curr_step}): {json.dumps(metrics, sort_keys=True)}", flush=True)

    # -- sending groups -------------------------------------------------------------
    async def handle_send_to_api(
        self,
        scored_data: Union[ScoredDataGroup, List[ScoredDataGroup], None],
        item: Item = None,
        do_send_to_api: bool = True,
        abort_on_any_max_length_exceeded: bool = True,
    ) -> int:
        """Validate groups, write them to the JSONL file if set, and POST them to the API.
        Returns how many groups were accepted."""
        groups = scored_data if isinstance(scored_data, list) else [scored_data]
        accepted = 0
        for group in groups:
            if group is None:
                continue
            overrides = group.get("group_overrides", {})
            if not isinstance(overrides, dict):
                # The real base.py calls .get() on it: a None here raises and the group is lost.
                print(
                    f"Error in handle_send_to_api: group_overrides is {overrides!r}, not a dict; group dropped",
                    file=sys.stderr,
                    flush=True,
                )
                continue
            expected = overrides.get("group_size", self.config.group_size)
            if len(group.get("tokens") or []) != expected or len(group.get("scores") or []) != expected:
                print(
                    f"Group structure invalid, or token count mismatch (expected {expected}), skipping group",
                    file=sys.stderr,
                    flush=True,
                )
                continue
            if self.config.ensure_scores_are_not_same and len(set(group["scores"])) == 1:
                print("Scores are the same in a group, skipping...", flush=True)
                continue
            if (
                abort_on_any_max_length_exceeded
                and self.max_token_len > 0
                and any(len(t) >= self.max_token_len for t in group["tokens"])
            ):
                print("Token length is too long in a group, skipping...", file=sys.stderr, flush=True)
                continue
            for key in SCORED_GROUP_KEYS:
                group.setdefault(key, None)  # type: ignore[misc]
            self.percent_correct_buffer.extend(1.0 if s >= 1.0 else 0.0 for s in group["scores"])
            if self.jsonl_writer is not None:
                self.jsonl_writer.write(json.dumps(group) + "\n")
                self.jsonl_writer.flush()
                print(f"Wrote scored group to {self.config.data_path_to_save_groups}", flush=True)
            if do_send_to_api:
                if self.groups_sent == 0 and os.environ.get("DEMO_ENV_FAULT", "") == "exit_at_first_group":
                    _die("environment exits where its first group would be sent")
                payload = dict(group)
                payload["env_id"] = self.env_id
                self._api("POST", "/scored_data", payload)
                self.items_sent_this_step += 1
                self.groups_sent += 1
                fault = os.environ.get("DEMO_ENV_FAULT", "")
                if self.groups_sent == 1 and fault.startswith("exit_after_first_group:"):
                    seconds = float(fault.split(":", 1)[1])
                    _exit_later(seconds, f"environment exits {seconds} s after sending its first group")
            accepted += 1
        return accepted

    # -- talking to the trajectory API ---------------------------------------------
    def _api(self, method: str, path: str, body: Any = None) -> Any:
        """Call run-api, retrying while it is unreachable for up to DEMO_UNREACHABLE_SECONDS."""
        url = self.config.rollout_server_url.rstrip("/") + path
        limit = _unreachable_seconds()
        while True:
            try:
                answer = http_json(method, url, body, timeout=30.0)
                self._last_api_success = time.monotonic()
                return answer
            except HTTPUnreachable as e:
                if time.monotonic() - self._last_api_success > limit:
                    raise _FatalRuntimeError(
                        f"trajectory API at {self.config.rollout_server_url} unreachable for more than "
                        f"{limit:.0f} s ({e})"
                    ) from None
                time.sleep(0.5)
            except HTTPCallError as e:
                if e.status is not None and e.status >= 500 and time.monotonic() - self._last_api_success <= limit:
                    time.sleep(0.5)
                    continue
                raise _FatalRuntimeError(f"trajectory API error: {e}") from None

    async def register_env(self) -> None:
        started = time.monotonic()
        limit = _unreachable_seconds()
        warned = False
        while True:
            data = await asyncio.to_thread(
                self._api,
                "POST",
                "/register-env",
                {
                    "max_token_length": self.config.max_token_length,
                    "desired_name": self.config.wandb_name,
                    "weight": self.config.inference_weight,
                    "min_batch_allocation": self.config.min_batch_allocation,
                    "group_size": self.config.group_size,
                },
            )
            if isinstance(data, dict) and data.get("status") == "success":
                break
            if not warned:
                status = data.get("status") if isinstance(data, dict) else data
                print(f"Waiting to register the env due to status {status}", flush=True)
                warned = True
            if time.monotonic() - started > max(limit, 1.0) * 4:
                raise _FatalRuntimeError(
                    f"the trainer never started pulling batches from {self.config.rollout_server_url} "
                    f"(register-env answered {data!r} for {max(limit, 1.0) * 4:.0f} s)"
                )
            await asyncio.sleep(0.5)
        self.env_id = data["env_id"]
        self.wandb_prepend = data.get("wandb_name")
        self.curr_step = data.get("starting_step", 0)
        self.checkpoint_dir = data.get("checkpoint_dir", "")
        self.checkpoint_interval = data.get("checkpoint_interval", -1)
        if self.config.total_steps == -1:
            self.config.total_steps = data.get("num_steps", -1)
            if self.config.total_steps == -1:
                raise _FatalRuntimeError("Total steps not set in config or server!")
        print(
            f"Initialized env with id {self.env_id}: curr_step: {self.curr_step}, "
            f"checkpoint_dir: {self.checkpoint_dir}, checkpoint_interval: {self.checkpoint_interval}",
            flush=True,
        )

    async def get_server_info(self) -> None:
        data = await asyncio.to_thread(self._api, "GET", "/info")
        if data.get("batch_size", -1) != -1:
            self.config.batch_size = data["batch_size"]
        if data.get("max_token_len", -1) != -1:
            self.max_token_len = data["max_token_len"]
        if self.config.batch_size == -1:
            raise _FatalRuntimeError("Batch size not set by config or server!")
        if self.config.group_size > self.config.batch_size:
            raise _FatalRuntimeError(
                f"group_size ({self.config.group_size}) must be less than batch_size ({self.config.batch_size})"
            )

    async def get_status(self) -> Dict[str, Any]:
        self.status_dict = await asyncio.to_thread(self._api, "GET", "/status-env", {"env_id": self.env_id})
        return self.status_dict

    async def handle_env(self, item: Item) -> bool:
        """Roll out, score and send one item. Inference failures drop the group (like the real
        env) unless the inference server has been failing for longer than DEMO_UNREACHABLE_SECONDS."""
        try:
            to_postprocess, _backlog = await self.collect_trajectories(item)
        except InferenceError as e:
            idle = time.monotonic() - self.server.last_success
            if idle > _unreachable_seconds():
                raise _FatalRuntimeError(f"inference server failing for {idle:.0f} s: {e}") from None
            print(f"Error in collect_trajectories: {e}", file=sys.stderr, flush=True)
            await asyncio.sleep(0.25)
            return False
        to_postprocess = await self.postprocess_histories(to_postprocess)
        sent = await self.handle_send_to_api(to_postprocess, item)
        await self.cleanup()
        return sent > 0

    # -- the two main loops ------------------------------------------------------------
    async def env_manager(self) -> None:
        """serve mode: feed the trajectory API until the trainer has taken total_steps batches."""
        await self.setup()
        if self.config.use_wandb:
            print("use_wandb is true, but the demo has no wandb: metrics go to stdout", flush=True)
        await self.register_env()
        await self.get_server_info()
        await asyncio.to_thread(self._wait_for_inference)
        while True:
            status = await self.get_status()
            step = int(status.get("current_step", 0))
            if step != self.curr_step:
                await self._step_checks(step)
            if step >= self.config.total_steps:
                print(
                    f"Trajectory API reached step {step} of {self.config.total_steps}; "
                    f"sent {self.groups_sent} groups. Exiting.",
                    flush=True,
                )
                break
            queued_sequences = int(status.get("queue_size", 0)) * self.config.group_size
            if (
                self.config.max_batches_offpolicy > 0
                and queued_sequences >= self.config.max_batches_offpolicy * self.config.batch_size
            ):
                await asyncio.sleep(0.05)
                continue
            item = await self.get_next_item()
            if item is None:
                print("No more items to process", flush=True)
                await asyncio.sleep(0.5)
                continue
            await self.handle_env(item)
        if self.jsonl_writer is not None:
            self.jsonl_writer.close()

    async def _step_checks(self, new_step: int) -> None:
        if (
            self.config.steps_per_eval > 0
            and new_step < self.config.total_steps  # at the end the trainer may already be gone
            and (new_step // self.config.steps_per_eval) > (self.curr_step // self.config.steps_per_eval)
        ):
            try:
                await self.evaluate()  # STOP_TRAIN: no rollouts while it runs
            except InferenceError as e:
                print(f"Evaluation failed: {e}", file=sys.stderr, flush=True)
        self.curr_step = new_step
        if self.items_sent_this_step >= self.config.min_items_sent_before_logging:
            self.items_sent_this_step = 0
            await self.wandb_log({})

    def _wait_for_inference(self) -> None:
        limit = _unreachable_seconds()
        try:
            self.server._wait_for_health(give_up_after=limit)
        except InferenceUnreachable as e:
            raise _FatalRuntimeError(f"inference server not healthy: {e}") from None

    async def process_manager(self) -> None:
        """process mode: run total_steps groups against the inference server, write them to JSONL."""
        await self.setup()
        self.curr_step = 0
        n_groups = self.config.total_steps
        print(f"Starting to process {n_groups} groups...", flush=True)
        failures = 0
        while self.curr_step < n_groups:
            item = await self.get_next_item()
            if item is None:
                print("No more items to process", flush=True)
                break
            print(f"Processing group {self.curr_step + 1}/{n_groups}", flush=True)
            to_postprocess, _ = await self.collect_trajectories(item)
            if to_postprocess:
                processed = await self.postprocess_histories(to_postprocess)
                await self.handle_send_to_api(
                    processed, item, do_send_to_api=False, abort_on_any_max_length_exceeded=False
                )
                await self.wandb_log()
                self.curr_step += 1
                print(f"Successfully processed group {self.curr_step}/{n_groups}", flush=True)
            else:
                failures += 1
                print("Failed to process group, retrying...", flush=True)
                if failures > max(3, n_groups):
                    raise _FatalRuntimeError(f"gave up after {failures} failed groups")
        print(f"Completed processing {self.curr_step} groups", flush=True)
        if self.jsonl_writer is not None:
            self.jsonl_writer.close()

    async def _run_evaluate(self) -> None:
        await self.setup()
        await self.evaluate()

    # -- command line ------------------------------------------------------------
    @classmethod
    def cli(cls) -> None:
        """Entry point: `python ENV.py serve|process|evaluate [flags]`."""
        _arm_demo_fault()
        try:
            code = cls._cli_main(sys.argv[1:])
        except _UsageError as e:
            print(f"{Path(sys.argv[0]).name}: error: {e}", file=sys.stderr, flush=True)
            code = 2
        except _FatalRuntimeError as e:
            print(f"Error: {e}", file=sys.stderr, flush=True)
            code = 1
        except InferenceError as e:
            print(f"Error: inference request failed: {e}", file=sys.stderr, flush=True)
            code = 1
        except KeyboardInterrupt:
            code = 130
        except Exception:  # noqa: BLE001 - last resort: show the traceback, exit 1
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.exit(code)

    @classmethod
    def _usage(cls) -> str:
        default_env_config, _ = cls.config_init()
        lines = [
            f"usage: {Path(sys.argv[0]).name} {{serve,process,evaluate}} [--config FILE] [--env.FIELD VALUE ...] "
            "[--openai.FIELD VALUE ...] [--slurm] [--testing]",
            "",
            f"CLI for {cls.__name__}. Precedence: CLI > YAML (--config) > config_init().",
            "",
            f"env fields ({type(default_env_config).__name__}):",
        ]
        for name, info in type(default_env_config).model_fields.items():
            lines.append(
                f"  --env.{name} ({_type_label(info.annotation)}, default {getattr(default_env_config, name)!r})"
                + (f": {info.description}" if info.description else "")
            )
        lines.append("openai fields (APIServerConfig):")
        for name, info in APIServerConfig.model_fields.items():
            lines.append(f"  --openai.{name} ({_type_label(info.annotation)}): {info.description or ''}")
        return "\n".join(lines)

    @classmethod
    def _cli_main(cls, argv: List[str]) -> int:
        if not argv or argv[0] in ("-h", "--help"):
            print(cls._usage())
            return 0 if argv else 2
        mode = argv[0]
        if mode not in ("serve", "process", "evaluate"):
            raise _UsageError(f"invalid choice {mode!r} (choose from 'serve', 'process', 'evaluate')")
        opts = _parse_flags(argv[1:])
        if opts.get("help"):
            print(cls._usage())
            return 0
        default_env_config, default_server_configs = cls.config_init()
        env_cls = type(default_env_config)
        if isinstance(default_server_configs, ServerBaseline):
            default_server_configs = [APIServerConfig(**default_server_configs.model_dump())]
        default_servers: List[APIServerConfig] = list(default_server_configs)

        yaml_config: Dict[str, Any] = {}
        if opts["config"] is not None:
            yaml_config = _load_yaml_config(opts["config"])
            print(f"Loaded config from {opts['config']}", flush=True)

        # 1. environment config: config_init < YAML < CLI
        env_dict = default_env_config.model_dump()
        if mode == "process":
            env_dict["ensure_scores_are_not_same"] = False
            env_dict["include_messages"] = True
            if env_dict.get("data_path_to_save_groups") is None:
                env_dict["data_path_to_save_groups"] = f"data/{cls.name or 'groups'}.jsonl"
        yaml_env = yaml_config.get(ENV_NAMESPACE) or {}
        if not isinstance(yaml_env, dict):
            raise _UsageError(f"config {opts['config']}: 'env' must be a mapping")
        for key, value in yaml_env.items():
            if key not in env_cls.model_fields:
                print(f"warning: ignoring env.{key} from {opts['config']}: not a field of {env_cls.__name__}", file=sys.stderr)
                continue
            env_dict[key] = value
        for key, raw in opts["env"].items():
            if key not in env_cls.model_fields:
                raise _UsageError(f"unrecognized arguments: --env.{key} (not a field of {env_cls.__name__})")
            try:
                env_dict[key] = parse_cli_value(raw, env_cls.model_fields[key].annotation)
            except ValueError as e:
                raise _UsageError(f"argument --env.{key}: {e}") from None
        if env_dict.get("wandb_name") is None and cls.name is not None:
            env_dict["wandb_name"] = cls.name
        try:
            env_config = env_cls(**env_dict)
        except ValidationError as e:
            raise _UsageError(str(e)) from None

        # 2. inference servers: config_init < YAML < CLI; OPENAI_API_KEY (see below)
        servers = _resolve_servers(default_servers, yaml_config.get(OPENAI_NAMESPACE), opts["openai"], opts["config"], mode)

        # 3. slurm / testing: CLI > YAML > False
        slurm = opts["slurm"] if opts["slurm"] is not None else bool(yaml_config.get("slurm", False))
        testing = opts["testing"] if opts["testing"] is not None else bool(yaml_config.get("testing", False))

        print(repr(env_config), flush=True)
        print(_describe_servers(servers), flush=True)
        if slurm:
            print("slurm: true (the demo runs everything locally)", flush=True)
        if mode == "process":
            print(
                f"Processing {env_config.total_steps} groups of {env_config.group_size} responses and writing to "
                f"{env_config.data_path_to_save_groups}",
                flush=True,
            )
        try:
            env = cls(config=env_config, server_configs=servers, slurm=slurm, testing=testing)
        except ValueError as e:
            raise _UsageError(str(e)) from None
        if mode == "serve":
            asyncio.run(env.env_manager())
        elif mode == "process":
            env.process_mode = True
            asyncio.run(env.process_manager())
        else:
            asyncio.run(env._run_evaluate())
        return 0


def _load_tokenizer(name: str) -> Any:
    """What transformers' AutoTokenizer.from_pretrained gives the real BaseEnv: the demo's byte tokenizer."""
    import demo_tokenizer  # beside the atroposlib package, standing in for transformers

    return demo_tokenizer.ByteTokenizer.from_pretrained(name)


def _type_label(tp: Any) -> str:
    if isinstance(tp, type):
        return tp.__name__
    return str(tp).replace("typing.", "")


_BOOL_WORDS = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}


def _parse_flags(args: List[str]) -> Dict[str, Any]:
    opts: Dict[str, Any] = {"config": None, "env": {}, "openai": {}, "slurm": None, "testing": None, "help": False}
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-h", "--help"):
            opts["help"] = True
            i += 1
            continue
        if not arg.startswith("--"):
            raise _UsageError(f"unrecognized arguments: {arg}")
        name, eq, inline = arg[2:].partition("=")
        if name in ("slurm", "testing"):
            if eq:
                value = _BOOL_WORDS.get(inline.lower())
                if value is None:
                    raise _UsageError(f"argument --{name}: expected true or false, got {inline!r}")
                opts[name] = value
            elif i + 1 < len(args) and args[i + 1].lower() in _BOOL_WORDS:
                opts[name] = _BOOL_WORDS[args[i + 1].lower()]
                i += 1
            else:
                opts[name] = True
            i += 1
            continue
        if eq:
            value_str = inline
        else:
            if i + 1 >= len(args):
                raise _UsageError(f"argument --{name}: expected one argument")
            value_str = args[i + 1]
            i += 1
        i += 1
        if name == "config":
            opts["config"] = value_str
        elif name.startswith(ENV_NAMESPACE + "."):
            opts["env"][name[len(ENV_NAMESPACE) + 1:]] = value_str
        elif name.startswith(OPENAI_NAMESPACE + "."):
            opts["openai"][name[len(OPENAI_NAMESPACE) + 1:]] = value_str
        else:
            raise _UsageError(f"unrecognized arguments: --{name}")
    return opts


def _load_yaml_config(path: str) -> Dict[str, Any]:
    import demo_yaml  # the demo's YAML reader sits beside the atroposlib package

    try:
        data = demo_yaml.load(path)
    except FileNotFoundError:
        raise _UsageError(f"config file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise _UsageError(f"cannot read config {path}: {e}") from None
    except demo_yaml.YAMLError as e:
        raise _UsageError(f"config {path} is not valid YAML: {e}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise _UsageError(f"config {path} must be a mapping at the top level")
    return data


def _resolve_servers(
    defaults: List[APIServerConfig],
    yaml_openai: Any,
    cli_openai: Dict[str, str],
    config_path: Optional[str],
    mode: str,
) -> List[APIServerConfig]:
    fields = APIServerConfig.model_fields
    for key in cli_openai:
        if key not in fields:
            raise _UsageError(f"unrecognized arguments: --openai.{key} (not a field of APIServerConfig)")
    if yaml_openai is None:
        entries: List[Dict[str, Any]] = [d.model_dump() for d in defaults] or [APIServerConfig().model_dump()]
    else:
        yaml_list = yaml_openai if isinstance(yaml_openai, list) else [yaml_openai]
        entries = []
        for idx, raw in enumerate(yaml_list):
            if not isinstance(raw, dict):
                raise _UsageError(f"config {config_path}: openai[{idx}] must be a mapping")
            base = (defaults[idx] if idx < len(defaults) else (defaults[0] if defaults else APIServerConfig())).model_dump()
            for key, value in raw.items():
                if key not in fields:
                    print(f"warning: ignoring openai[{idx}].{key} from {config_path}: not a field of APIServerConfig", file=sys.stderr)
                    continue
                base[key] = value
            entries.append(base)
    for entry in entries:
        for key, raw in cli_openai.items():
            try:
                entry[key] = parse_cli_value(raw, fields[key].annotation)
            except ValueError as e:
                raise _UsageError(f"argument --openai.{key}: {e}") from None
    # The key is the config's api_key, as in the real library; only an api_key of None makes the
    # client read OPENAI_API_KEY (see ServerManager).
    try:
        return [APIServerConfig(**entry) for entry in entries]
    except ValidationError as e:
        raise _UsageError(str(e)) from None
