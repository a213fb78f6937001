#!/usr/bin/env python3
"""The demo trainer: a standard-library miniature of tinker-atropos' launch_training.py.

    python3 launch_training.py --config RUN.yaml
        [--base-model M] [--lora-rank N] [--learning-rate X] [--num-steps N] [--batch-size N]
        [--group-size N] [--wandb-project P] [--wandb-group G] [--no-wandb]   (accepted, ignored)

1. Serves an OpenAI-compatible inference server on the host/port of openai[0].base_url
   (GET /health, POST /v1/chat/completions, POST /v1/completions, GET /wandb_info) that
   samples from the CURRENT toy policy (demo_policy.SoftmaxPolicy).
2. Registers with the trajectory API (POST {env.rollout_server_url}/register).
3. Trains env.total_steps steps: GET /batch until a batch comes, REINFORCE update with a
   group-mean baseline, and the real trainer's stdout lines (steps are 0-based, like the real one):
       Step {s}/{N}   Got {k} Datum objects   Loss: {x}   Reward/mean: {x:.4f}
       Step {s} complete - Loss: {x}          Error in step {s}: ...
       Training complete!   Final weights are available here: tinker://demo/{wandb_run_name}/final
   Exit 0 at the end, also after "Error in step" (the loop breaks, like the real trainer).

Demo-only keys in the run YAML's `tinker:` section (the real trainer ignores unknown keys):
  demo_step_seconds (float, default 0.5)  sleep per step, standing in for GPU time
  demo_learning_rate (float)              toy-policy step size (default: learning_rate * 1e5)
  demo_seed (int)                         seed for the policy's sampling
  demo_last_step_seconds (float, default 0) extra time in the last optimizer step (the environment is done by then)
  demo_fault: "error_in_step:K" | "crash_in_step:K" | "no_health" | "hung" (no_health, and SIGTERM is ignored)
              | "flood_after_error:K" (error_in_step:K, then 5 MiB of log lines before the end, exit 0)
              | "verbose:KIB" (KIB KiB of chatter in each step's log)
              | "fill_disk:K" (in step K, fills the disk of the run YAML's folder with a file beside it, then goes on)
              | "reward_collapse:K" (from step K on, the policy answers "I am not sure." to every prompt: reward 0)
TINKER_API_KEY is not needed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import signal
import string
import sys
import threading
import time
import traceback
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import urlparse

import demo_yaml
from demo_tokenizer import IM_END, ByteTokenizer, last_user_message, split_chatml
from demo_policy import FALLBACK_ANSWER, SoftmaxPolicy, parse_choice_prompt

DEFAULT_GROUPS_PER_BATCH = 4


class ConfigError(Exception):
    """The run YAML is missing, unreadable or holds a bad value."""


class DemoCrash(BaseException):
    """Injected by demo_fault crash_in_step:K; escapes the per-step error handler on purpose."""


def _start_seconds() -> float:
    """DEMO_TRAINER_START_SECONDS (default 0): how long the trainer takes before its inference server is up, standing
    in for a trainer loading its model."""
    try:
        return max(0.0, float(os.environ.get("DEMO_TRAINER_START_SECONDS", "0")))
    except ValueError:
        return 0.0


def _unreachable_seconds() -> float:
    try:
        return float(os.environ.get("DEMO_UNREACHABLE_SECONDS", "30"))
    except ValueError:
        return 30.0


# ---------------------------------------------------------------------------
# configuration
# ---------------------------------------------------------------------------


def _get(section: Dict[str, Any], key: str, default: Any, kind: type, where: str) -> Any:
    value = section.get(key, default)
    if value is None:
        return default
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if kind is int and isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigError(f"{where}.{key} must be {kind.__name__}, got {value!r}")
    return value


class TrainerConfig:
    """The fields of the run YAML the demo trainer reads (defaults as in tinker-atropos)."""

    def __init__(self, data: Dict[str, Any]):
        env = data.get("env") or {}
        tinker = data.get("tinker") or {}
        openai = data.get("openai") or [{}]
        if not isinstance(env, dict) or not isinstance(tinker, dict):
            raise ConfigError("'env' and 'tinker' must be mappings")
        if isinstance(openai, dict):
            openai = [openai]
        if not isinstance(openai, list) or not openai or not isinstance(openai[0], dict):
            raise ConfigError("'openai' must be a list of server mappings")
        server = openai[0]
        self.group_size = _get(env, "group_size", 16, int, "env")
        self.batch_size = _get(env, "batch_size", -1, int, "env")
        if self.batch_size <= 0:
            self.batch_size = self.group_size * DEFAULT_GROUPS_PER_BATCH
        self.num_steps = _get(env, "total_steps", 50, int, "env")
        self.tokenizer_name = _get(env, "tokenizer_name", "meta-llama/Llama-3.1-8B-Instruct", str, "env")
        self.use_wandb = _get(env, "use_wandb", True, bool, "env")
        self.rollout_server_url = _get(env, "rollout_server_url", "http://localhost:8000", str, "env").rstrip("/")
        self.max_token_env_length = _get(env, "max_token_length", 256, int, "env")
        self.base_url = _get(server, "base_url", "http://localhost:8001/v1", str, "openai[0]")
        self.model_name = _get(server, "model_name", self.tokenizer_name, str, "openai[0]")
        self.lora_rank = _get(tinker, "lora_rank", 32, int, "tinker")
        self.learning_rate = _get(tinker, "learning_rate", 4e-5, float, "tinker")
        self.max_token_trainer_length = _get(tinker, "max_token_trainer_length", 2048, int, "tinker")
        self.checkpoint_dir = _get(tinker, "checkpoint_dir", "./temp/", str, "tinker")
        self.save_checkpoint_interval = _get(tinker, "save_checkpoint_interval", 0, int, "tinker")
        self.wandb_project = _get(tinker, "wandb_project", "atropos-tinker", str, "tinker")
        self.wandb_group = _get(tinker, "wandb_group", None, str, "tinker") if tinker.get("wandb_group") is not None else None
        self.wandb_run_name = _get(tinker, "wandb_run_name", "atropos-tinker-run", str, "tinker")
        suffix = tinker.get("wandb_run_suffix")
        self.wandb_run_suffix = str(suffix) if suffix is not None else "".join(
            random.choices(string.ascii_lowercase + string.digits, k=4)
        )
        self.step_seconds = _get(tinker, "demo_step_seconds", 0.5, float, "tinker")
        self.last_step_seconds = _get(tinker, "demo_last_step_seconds", 0.0, float, "tinker")
        self.demo_learning_rate = _get(tinker, "demo_learning_rate", self.learning_rate * 1e5, float, "tinker")
        self.demo_seed = _get(tinker, "demo_seed", None, int, "tinker") if tinker.get("demo_seed") is not None else None
        self.fault, self.fault_step = _parse_fault(tinker.get("demo_fault"))
        # Where the run YAML is (set by load_config): demo_fault fill_disk fills its disk.
        self.config_dir = os.getcwd()
        if self.num_steps <= 0:
            raise ConfigError(f"env.total_steps must be positive, got {self.num_steps}")
        if self.group_size <= 0:
            raise ConfigError(f"env.group_size must be positive, got {self.group_size}")
        if self.step_seconds < 0 or math.isnan(self.step_seconds):
            raise ConfigError(f"tinker.demo_step_seconds must be >= 0, got {self.step_seconds}")
        parsed = urlparse(self.base_url)
        if parsed.scheme not in ("http", "https") or not parsed.port and not parsed.hostname:
            raise ConfigError(f"openai[0].base_url is not an http URL: {self.base_url!r}")
        self.inference_host = parsed.hostname or "127.0.0.1"
        if self.inference_host == "localhost":
            self.inference_host = "127.0.0.1"
        self.inference_port = parsed.port or 8001


def _parse_fault(raw: Any) -> Tuple[Optional[str], Optional[int]]:
    if raw in (None, "", False):
        return None, None
    if not isinstance(raw, str):
        raise ConfigError(f"tinker.demo_fault must be a string, got {raw!r}")
    if raw in ("no_health", "hung"):
        return raw, None
    kind, _, step = raw.partition(":")
    if kind in ("error_in_step", "crash_in_step", "flood_after_error", "verbose", "fill_disk", "reward_collapse"):
        try:
            return kind, int(step)
        except ValueError:
            pass
    raise ConfigError(
        f"tinker.demo_fault {raw!r} is not one of 'error_in_step:K', 'crash_in_step:K', 'flood_after_error:K', "
        "'verbose:KIB', 'fill_disk:K', 'reward_collapse:K', 'no_health', 'hung'"
    )


def load_config(args: argparse.Namespace) -> TrainerConfig:
    if args.config:
        print(f"Loading config from: {args.config}", flush=True)
        if not os.path.exists(args.config):
            raise FileNotFoundError(f"Config file not found: {args.config}")
        try:
            data = demo_yaml.load(args.config)
        except demo_yaml.YAMLError as e:
            raise ConfigError(f"{args.config} is not valid YAML: {e}") from None
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise ConfigError(f"{args.config} must hold a mapping")
    else:
        print("Using default configuration", flush=True)
        data = {}
    ignored = {
        k: v
        for k, v in vars(args).items()
        if k != "config" and v not in (None, False)
    }
    if ignored:
        print(f"Ignoring CLI overrides in the demo: {ignored}", flush=True)
    config = TrainerConfig(data)
    config.config_dir = os.path.dirname(os.path.abspath(args.config)) if args.config else os.getcwd()
    return config


# ---------------------------------------------------------------------------
# inference server (OpenAI-compatible), sampling from the live policy
# ---------------------------------------------------------------------------


class InferenceState:
    def __init__(self, policy: SoftmaxPolicy, config: TrainerConfig):
        self.policy = policy
        self.config = config
        self.counter = 0
        self.lock = threading.Lock()

    def next_id(self) -> int:
        with self.lock:
            self.counter += 1
            return self.counter


# Set by demo_fault reward_collapse:K once step K begins: the policy has collapsed into one useless answer.
_COLLAPSED = threading.Event()


def _answers_for(state: InferenceState, user_text: Optional[str], n: int, temperature: float) -> List[Tuple[str, Optional[float]]]:
    parsed = parse_choice_prompt(user_text)
    if parsed is None or _COLLAPSED.is_set():
        return [(FALLBACK_ANSWER, None)] * n
    question, choices = parsed
    return [(a, lp) for a, lp in state.policy.sample(question, choices, n=n, temperature=temperature)]


def _number(body: Dict[str, Any], key: str, default: float, lo: float, hi: float) -> float:
    value = body.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
        raise ValueError(f"'{key}' must be a number between {lo} and {hi}")
    return float(value)


def make_inference_handler(state: InferenceState) -> type:
    class InferenceHandler(BaseHTTPRequestHandler):
        server_version = "demo-tinker-inference/1.0"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

        def _send(self, status: int, payload: Any) -> None:
            data = json.dumps(payload).encode("utf-8")
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _json_body(self) -> Any:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length > 0 else b""
            try:
                return json.loads(raw.decode("utf-8")) if raw else None
            except (UnicodeDecodeError, json.JSONDecodeError):
                return None

        def do_GET(self) -> None:  # noqa: N802
            path = urlparse(self.path).path.rstrip("/")
            if path == "/health":
                self._send(200, {"status": "ok", "trainer_initialized": True})
            elif path == "/wandb_info":
                cfg = state.config
                self._send(200, {"group": cfg.wandb_group, "project": cfg.wandb_project})
            elif path in ("/v1/models", "/models"):
                self._send(200, {"object": "list", "data": [{"id": state.config.model_name, "object": "model"}]})
            else:
                self._send(404, {"detail": "Not Found"})

        def do_POST(self) -> None:  # noqa: N802
            path = urlparse(self.path).path.rstrip("/")
            body = self._json_body()
            if not isinstance(body, dict):
                self._send(422, {"detail": "body must be a JSON object"})
                return
            try:
                n = int(_number(body, "n", 1, 1, 256))
                temperature = _number(body, "temperature", 1.0, 0.0, 2.0)
            except ValueError as e:
                self._send(422, {"detail": str(e)})
                return
            model = body.get("model") or state.config.model_name
            created = int(time.time())
            if path in ("/v1/chat/completions", "/chat/completions"):
                messages = body.get("messages")
                if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
                    self._send(422, {"detail": "'messages' must be a list of {role, content} objects"})
                    return
                answers = _answers_for(state, last_user_message(messages), n, temperature)
                want_logprobs = bool(body.get("logprobs"))
                choices = []
                for i, (text, lp) in enumerate(answers):
                    choices.append(
                        {
                            "index": i,
                            "message": {"role": "assistant", "content": text},
                            "finish_reason": "stop",
                            "logprobs": {"content": [{"token": text, "logprob": lp}]} if want_logprobs else None,
                        }
                    )
                prompt_tokens = sum(len(str(m.get("content") or "")) for m in messages)
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-demo-{state.next_id()}",
                        "object": "chat.completion",
                        "created": created,
                        "model": model,
                        "choices": choices,
                        "usage": {
                            "prompt_tokens": prompt_tokens,
                            "completion_tokens": sum(len(a) for a, _ in answers),
                            "total_tokens": prompt_tokens + sum(len(a) for a, _ in answers),
                        },
                    },
                )
            elif path in ("/v1/completions", "/completions"):
                prompts = body.get("prompt")
                if isinstance(prompts, str):
                    prompts = [prompts]
                if not isinstance(prompts, list) or not all(isinstance(p, str) for p in prompts):
                    self._send(422, {"detail": "'prompt' must be a string or a list of strings"})
                    return
                choices = []
                for prompt in prompts:
                    user = last_user_message(split_chatml(prompt)) or prompt
                    for text, _ in _answers_for(state, user, n, temperature):
                        choices.append({"index": len(choices), "text": text, "finish_reason": "stop", "logprobs": None})
                self._send(
                    200,
                    {"id": f"cmpl-demo-{state.next_id()}", "object": "text_completion", "created": created, "model": model, "choices": choices},
                )
            else:
                self._send(404, {"detail": "Not Found"})

    return InferenceHandler


# ---------------------------------------------------------------------------
# the trainer
# ---------------------------------------------------------------------------


def _http_json(method: str, url: str, body: Any = None, timeout: float = 10.0) -> Any:
    data = None if body is None else json.dumps(body).encode("utf-8")
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return json.loads(resp.read().decode("utf-8"))


class DemoTrainer:
    def __init__(self, config: TrainerConfig):
        self.config = config
        self.policy = SoftmaxPolicy(config.demo_seed)
        self.tokenizer = ByteTokenizer.from_pretrained(config.tokenizer_name)
        self.trainer_id: Optional[int] = None
        self.wandb_group = config.wandb_group or "".join(random.choices(string.ascii_lowercase + string.digits, k=8))
        self.group_mean_rewards: List[float] = []

    def _call_api(self, method: str, path: str, body: Any = None) -> Any:
        """Call run-api, retrying while it is unreachable for up to DEMO_UNREACHABLE_SECONDS."""
        url = self.config.rollout_server_url + path
        deadline = time.monotonic() + _unreachable_seconds()
        while True:
            try:
                return _http_json(method, url, body)
            except urllib.error.HTTPError:
                raise
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as e:
                if time.monotonic() > deadline:
                    raise ConnectionError(
                        f"trajectory API at {self.config.rollout_server_url} unreachable for "
                        f"{_unreachable_seconds():.0f} s: {getattr(e, 'reason', e)}"
                    ) from None
                time.sleep(0.25)

    def setup(self) -> None:
        print("Setting up Tinker-Atropos Trainer...", flush=True)
        print(f"Creating ServiceClient for {self.config.tokenizer_name}... (demo: toy softmax policy)", flush=True)
        print("Registering with Atropos API...", flush=True)
        result = self._call_api(
            "POST",
            "/register",
            {
                "wandb_project": self.config.wandb_project,
                "wandb_group": self.wandb_group,
                "batch_size": self.config.batch_size,
                "max_token_len": self.config.max_token_trainer_length,
                "starting_step": 0,
                "checkpoint_dir": self.config.checkpoint_dir,
                "save_checkpoint_interval": self.config.save_checkpoint_interval,
                "num_steps": self.config.num_steps,
            },
        )
        self.trainer_id = result.get("uuid")
        print(f"Registered as trainer: {self.trainer_id}", flush=True)
        if self.config.use_wandb:
            print(
                "Wandb is not used by the demo (a real run would be named "
                f"{self.config.wandb_run_name}-trainer-{self.config.wandb_run_suffix} in group {self.wandb_group})",
                flush=True,
            )

    def get_data(self) -> List[Dict[str, Any]]:
        while True:
            data = self._call_api("GET", "/batch")
            if data.get("batch") is not None:
                return data["batch"]
            time.sleep(0.05)

    def _decode(self, tokens: List[int], masks: List[int]) -> Optional[Tuple[str, List[str], str]]:
        prompt = self.tokenizer.decode([t for t, m in zip(tokens, masks) if m == -100])
        completion = self.tokenizer.decode([t for t, m in zip(tokens, masks) if m != -100])
        if completion.endswith(IM_END):
            completion = completion[: -len(IM_END)]
        parsed = parse_choice_prompt(last_user_message(split_chatml(prompt)))
        if parsed is None:
            return None
        question, choices = parsed
        return question, choices, completion

    def train_step(self, step: int) -> Dict[str, Any]:
        cfg = self.config
        print(f"\n{'=' * 60}", flush=True)
        print(f"Step {step}/{cfg.num_steps}", flush=True)
        print("=" * 60, flush=True)
        if cfg.fault == "reward_collapse" and cfg.fault_step is not None and step >= cfg.fault_step:
            _COLLAPSED.set()
        print("Fetching data from Atropos...", flush=True)
        batch = self.get_data()
        samples: List[Tuple[str, List[str], str, float]] = []
        group_means: List[float] = []
        skipped = 0
        datums = 0
        for group in batch:
            scores = [float(s) for s in group.get("scores") or []]
            if not scores:
                continue
            mean = sum(scores) / len(scores)
            group_means.append(mean)
            advantages = [s - mean for s in scores]
            if len(scores) > 1 and all(a == 0.0 for a in advantages):
                skipped += 1
                continue
            for i, override in enumerate(group.get("overrides") or []):
                if isinstance(override, dict) and override.get("set_advantage_to_zero") and i < len(advantages):
                    advantages[i] = 0.0
            for tokens, masks, adv in zip(group.get("tokens") or [], group.get("masks") or [], advantages):
                datums += 1
                decoded = self._decode(tokens, masks)
                if decoded is not None:
                    samples.append((decoded[0], decoded[1], decoded[2], adv))
        if skipped:
            print(f"Skipped {skipped} groups with zero advantages", flush=True)
        print(f"Got {datums} Datum objects", flush=True)
        if cfg.fault == "verbose":
            _chatter(cfg.fault_step or 0, step)
        if cfg.fault == "fill_disk" and cfg.fault_step == step:
            _fill_disk(cfg.config_dir)
        if cfg.fault in ("error_in_step", "flood_after_error") and cfg.fault_step == step:
            raise RuntimeError(f"demo fault injected: forward_backward failed at step {step}")
        if cfg.fault == "crash_in_step" and cfg.fault_step == step:
            raise DemoCrash(f"demo fault injected: trainer crashed at step {step}")
        print("Running forward-backward pass...", flush=True)
        loss = self.policy.reinforce_update(samples, cfg.demo_learning_rate)
        print("Running optimizer step...", flush=True)
        if cfg.step_seconds > 0:
            time.sleep(cfg.step_seconds)
        if step == cfg.num_steps - 1 and cfg.last_step_seconds > 0:
            time.sleep(cfg.last_step_seconds)
        print(f"Loss: {loss}", flush=True)
        print("Saving checkpoint and updating sampling client...", flush=True)
        print(f"Sampling client updated: tinker://demo/{cfg.wandb_run_name}/sampler_weights/step_{step + 1}", flush=True)
        metrics: Dict[str, Any] = {"step": step, "loss": loss, "learning_rate": cfg.learning_rate}
        if group_means:
            metrics["reward/mean"] = sum(group_means) / len(group_means)
            print(f"Reward/mean: {metrics['reward/mean']:.4f}", flush=True)
        return metrics

    def run(self) -> None:
        print("\n" + "=" * 60, flush=True)
        print("Starting Tinker-Atropos Training", flush=True)
        print("=" * 60 + "\n", flush=True)
        self.setup()
        for step in range(self.config.num_steps):
            try:
                metrics = self.train_step(step)
                print(f"\nStep {step} complete - Loss: {metrics.get('loss', 'N/A')}", flush=True)
            except Exception as e:  # noqa: BLE001 - the real trainer breaks the loop on any step error
                print(f"Error in step {step}: {e}", flush=True)
                traceback.print_exc()
                sys.stderr.flush()
                break
        if self.config.fault == "flood_after_error":
            # A trainer that keeps talking after its step error: the verdict must not depend on the log's last MiBs.
            _chatter(5 * 1024, -1)
        print("\n" + "=" * 60, flush=True)
        print("Training complete!", flush=True)
        print("=" * 60 + "\n", flush=True)
        print(f"Final weights are available here: tinker://demo/{self.config.wandb_run_name}/final", flush=True)


def _chatter(kib: int, step: int) -> None:
    """KIB KiB of debug lines on stdout, as a verbose trainer writes between its progress lines."""
    line = f"DEBUG step {step}: " + "x" * 100 + "\n"
    block = line * 64
    for _ in range(max(0, kib * 1024 // len(block))):
        sys.stdout.write(block)
    sys.stdout.flush()


def _fill_disk(folder: str) -> None:
    """Fills the disk of `folder` with demo-disk-filler beside the run YAML (deleting it frees the space again)."""
    chunk = b"\0" * (1024 * 1024)
    try:
        with open(os.path.join(folder, "demo-disk-filler"), "ab") as f:
            while True:
                f.write(chunk)
                f.flush()
    except OSError:
        pass
    try:
        with open(os.path.join(folder, "demo-disk-filler"), "ab") as f:
            while True:
                f.write(b"\0" * 4096)
                f.flush()
    except OSError:
        pass


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Launch (demo) Tinker-Atropos training with YAML configuration")
    parser.add_argument("--config", type=str, default=None, help="Path to YAML config file")
    parser.add_argument("--base-model", type=str, help="Accepted; ignored by the demo")
    parser.add_argument("--lora-rank", type=int, help="Accepted; ignored by the demo")
    parser.add_argument("--learning-rate", type=float, help="Accepted; ignored by the demo")
    parser.add_argument("--num-steps", type=int, help="Accepted; ignored by the demo")
    parser.add_argument("--batch-size", type=int, help="Accepted; ignored by the demo")
    parser.add_argument("--group-size", type=int, help="Accepted; ignored by the demo")
    parser.add_argument("--wandb-project", type=str, help="Accepted; ignored by the demo")
    parser.add_argument("--wandb-group", type=str, help="Accepted; ignored by the demo")
    parser.add_argument("--no-wandb", action="store_true", help="Accepted; ignored by the demo")
    return parser.parse_args(argv)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    try:
        config = load_config(args)
    except (FileNotFoundError, ConfigError) as e:
        print(f"Error: {e}", flush=True)
        print(f"Error: {e}", file=sys.stderr, flush=True)
        return 1

    print("\n" + "=" * 80)
    print("Training Configuration:")
    print("=" * 80)
    print(f"Base Model: {config.tokenizer_name}")
    print(f"LoRA Rank: {config.lora_rank}")
    print(f"Learning Rate: {config.learning_rate} (demo policy step size {config.demo_learning_rate})")
    print(f"Training Steps: {config.num_steps}")
    print(f"Batch Size: {config.batch_size}")
    print(f"Group Size: {config.group_size}")
    print(f"Wandb Enabled: {config.use_wandb}")
    print(f"Atropos API URL: {config.rollout_server_url}")
    print(f"Inference API URL: {config.base_url}")
    if config.fault:
        print(f"Demo fault: {config.fault}" + (f" at step {config.fault_step}" if config.fault_step is not None else ""))
    print("=" * 80 + "\n", flush=True)

    print("Initializing Tinker-Atropos Trainer...", flush=True)
    trainer = DemoTrainer(config)
    print(f"Starting FastAPI inference server on port {config.inference_port}...", flush=True)
    if config.fault in ("no_health", "hung"):
        if config.fault == "hung":
            # A trainer stuck past caring: only SIGKILL ends it (from before the line below, which tests wait for).
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print(f"Demo fault {config.fault}: the inference server never starts.", flush=True)
        while True:
            time.sleep(3600)
    if _start_seconds() > 0:
        print(f"Loading the model ({_start_seconds()} s, DEMO_TRAINER_START_SECONDS)...", flush=True)
        time.sleep(_start_seconds())
    try:
        server = ThreadingHTTPServer(
            (config.inference_host, config.inference_port), make_inference_handler(InferenceState(trainer.policy, config))
        )
    except OSError as e:
        msg = f"Error: cannot start the inference server on {config.inference_host}:{config.inference_port}: {e.strerror or e}"
        print(msg, flush=True)
        print(msg, file=sys.stderr, flush=True)
        return 1
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
    print(f"INFO:     Uvicorn running on http://{config.inference_host}:{config.inference_port}", flush=True)

    try:
        trainer.run()
        print("\n" + "=" * 80)
        print("Training completed successfully!")
        print("=" * 80, flush=True)
    except (Exception, DemoCrash) as e:  # noqa: BLE001 - like the real launcher: report and exit 1
        print(f"\n\nError during training: {e}", flush=True)
        traceback.print_exc()
        sys.stderr.flush()
        return 1
    finally:
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\n\nTraining interrupted by user.", flush=True)
        sys.exit(1)
