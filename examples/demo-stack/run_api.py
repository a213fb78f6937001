#!/usr/bin/env python3
"""The demo's trajectory API: a standard-library miniature of Atropos `run-api`.

    python3 run_api.py [--host 127.0.0.1] [--port 8000]

Endpoints (JSON):
  GET  /                 {"message": "AtroposLib API"}            (readiness probe)
  GET  /status           {"current_step": int, "queue_size": int}  (groups waiting)
  POST /register         trainer: wandb_group, wandb_project, batch_size, max_token_len,
                         checkpoint_dir, save_checkpoint_interval, starting_step, num_steps -> {"uuid"}
  POST /register-env     environment -> {"status": "success", "env_id", ...}, or
                         {"status": "wait for trainer to start"} until the trainer's first GET /batch
  POST /scored_data      one scored group (tokens, masks, scores, ...) ; /scored_data_list: a list
  GET  /batch            {"batch": [groups]} holding exactly batch_size sequences, or {"batch": null};
                         current_step counts the batches handed out
  GET  /info, /wandb_info, /latest_example, /reset_data ; GET|POST /status-env {"env_id"}
It never exits by itself; SIGTERM ends it at once and quietly. Exit 1 if the port is taken.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import parse_qs, urlparse

MIN_ENV_WEIGHT = 0.01
REGISTRATION_FIELDS = (
    "wandb_group",
    "wandb_project",
    "batch_size",
    "max_token_len",
    "checkpoint_dir",
    "save_checkpoint_interval",
    "starting_step",
    "num_steps",
)
GROUP_FIELDS = (
    "tokens",
    "masks",
    "scores",
    "advantages",
    "ref_logprobs",
    "messages",
    "generation_params",
    "inference_logprobs",
    "overrides",
    "group_overrides",
    "images",
    "env_id",
)


class ApiState:
    """Everything run-api keeps in memory (like app.state in the real FastAPI app)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        self.registered = False
        self.started = False
        self.group: Optional[str] = None
        self.project: Optional[str] = None
        self.batch_size = -1
        self.max_token_len = -1
        self.checkpoint_dir = ""
        self.save_checkpoint_interval = -1
        self.num_steps = -1
        self.step = 0
        self.queue: List[Dict[str, Any]] = []
        self.envs: List[Dict[str, Any]] = []
        self.requesters: List[int] = []
        self.latest: Optional[Dict[str, Any]] = None


STATE = ApiState()


class HttpError(Exception):
    def __init__(self, status: int, detail: Any):
        super().__init__(str(detail))
        self.status = status
        self.detail = detail


def _require(body: Any, fields: Tuple[str, ...], types: Dict[str, type]) -> Dict[str, Any]:
    if not isinstance(body, dict):
        raise HttpError(422, "body must be a JSON object")
    missing = [f for f in fields if f not in body]
    if missing:
        raise HttpError(422, [{"loc": ["body", f], "msg": "Field required"} for f in missing])
    for name, tp in types.items():
        value = body.get(name)
        if value is None:
            continue
        if tp is float and isinstance(value, int) and not isinstance(value, bool):
            continue
        if not isinstance(value, tp) or (tp is int and isinstance(value, bool)):
            raise HttpError(422, [{"loc": ["body", name], "msg": f"Input should be a valid {tp.__name__}"}])
    return body


def _group_from(body: Any) -> Dict[str, Any]:
    _require(body, ("tokens", "masks", "scores"), {"tokens": list, "masks": list, "scores": list})
    if body.get("messages") is not None:
        for conversation in body["messages"]:
            if isinstance(conversation, list):
                for msg in conversation:
                    if not isinstance(msg, dict) or "role" not in msg or "content" not in msg:
                        raise HttpError(422, "Message must have 'role' and 'content' fields")
    return {k: body.get(k) for k in GROUP_FIELDS}


def _take_batch(queue: List[Dict[str, Any]], batch_size: int) -> Optional[List[Dict[str, Any]]]:
    """Oldest groups whose sequences add up to exactly batch_size (None if not possible yet)."""
    chosen: List[int] = []
    total = 0
    for i, group in enumerate(queue):
        n = len(group.get("tokens") or [])
        if n == 0 or total + n > batch_size:
            continue
        chosen.append(i)
        total += n
        if total == batch_size:
            break
    if total != batch_size:
        return None
    batch = [queue[i] for i in chosen]
    for i in reversed(chosen):
        del queue[i]
    return batch


def handle(method: str, path: str, query: Dict[str, List[str]], body: Any) -> Any:
    s = STATE
    if path == "/" and method == "GET":
        return {"message": "AtroposLib API"}
    if path == "/register" and method == "POST":
        reg = _require(body, REGISTRATION_FIELDS, {"batch_size": int, "max_token_len": int, "num_steps": int, "starting_step": int})
        with s.lock:
            if not s.registered:
                s.registered = True
                s.group = reg["wandb_group"]
                s.project = reg["wandb_project"]
                s.batch_size = int(reg["batch_size"])
                s.max_token_len = int(reg["max_token_len"])
                s.step = int(reg["starting_step"])
                s.checkpoint_dir = reg["checkpoint_dir"]
                s.save_checkpoint_interval = reg["save_checkpoint_interval"]
                s.num_steps = reg["num_steps"]
                print(f"Trainer registered: batch_size={s.batch_size}, num_steps={s.num_steps}", flush=True)
            s.requesters.append(uuid.uuid4().int >> 64)
            return {"uuid": s.requesters[-1]}
    if path == "/register-env" and method == "POST":
        reg = _require(body, ("max_token_length", "desired_name", "weight", "group_size"), {"group_size": int})
        with s.lock:
            if not s.started:
                return {"status": "wait for trainer to start"}
            name = reg["desired_name"]
            real_name = f"{name}_{len([e for e in s.envs if e['desired_name'] == name])}"
            env_id = len(s.envs)
            s.envs.append(
                {
                    "max_context_len": reg["max_token_length"],
                    "weight": reg["weight"] if reg["weight"] is not None else 1.0,
                    "desired_name": name,
                    "real_name": real_name,
                    "registered_id": env_id,
                    "last_update": time.time(),
                    "connected": True,
                    "min_batch_allocation": reg.get("min_batch_allocation"),
                    "group_size": reg["group_size"],
                }
            )
            print(f"Environment registered: id={env_id} name={real_name}", flush=True)
            return {
                "status": "success",
                "env_id": env_id,
                "wandb_name": real_name,
                "checkpoint_dir": s.checkpoint_dir,
                "starting_step": s.step,
                "checkpoint_interval": s.save_checkpoint_interval,
                "num_steps": s.num_steps,
            }
    if path == "/disconnect-env" and method == "POST":
        with s.lock:
            try:
                s.envs[int(body["env_id"])]["connected"] = False
                return {"status": "success"}
            except (KeyError, IndexError, TypeError, ValueError) as e:
                return {"status": "failure", "error": str(e)}
    if path == "/wandb_info" and method == "GET":
        with s.lock:
            return {"group": s.group, "project": s.project, "zmq_port": None}
    if path == "/info" and method == "GET":
        with s.lock:
            return {"batch_size": s.batch_size, "max_token_len": s.max_token_len}
    if path == "/batch" and method == "GET":
        with s.lock:
            if not s.registered:
                return {"batch": None}
            s.started = True
            batch = _take_batch(s.queue, s.batch_size)
            if batch is None:
                return {"batch": None}
            s.step += 1
            print(f"Sending batch of {sum(len(g['tokens']) for g in batch)} sequences (step {s.step})", flush=True)
            return {"batch": batch}
    if path == "/latest_example" and method == "GET":
        with s.lock:
            return s.latest or {k: [] for k in GROUP_FIELDS if k != "env_id"}
    if path == "/scored_data" and method == "POST":
        group = _group_from(body)
        with s.lock:
            s.queue.append(group)
            s.latest = group
        return {"status": "received"}
    if path == "/scored_data_list" and method == "POST":
        if not isinstance(body, list):
            raise HttpError(422, "body must be a JSON list of scored groups")
        groups = [_group_from(g) for g in body]
        with s.lock:
            s.queue.extend(groups)
            if groups:
                s.latest = groups[-1]
        return {"status": "received", "groups_processed": len(groups)}
    if path == "/status" and method == "GET":
        with s.lock:
            return {"current_step": s.step, "queue_size": len(s.queue)}
    if path == "/status-env" and method in ("GET", "POST"):
        env_id = None
        if isinstance(body, dict) and "env_id" in body:
            env_id = body["env_id"]
        elif "env_id" in query:
            env_id = query["env_id"][0]
        try:
            env_id = int(env_id)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise HttpError(422, [{"loc": ["body", "env_id"], "msg": "Field required"}]) from None
        with s.lock:
            if not 0 <= env_id < len(s.envs):
                raise HttpError(404, f"unknown env_id {env_id}")
            env = s.envs[env_id]
            total = sum(e["max_context_len"] * max(0.0, e["weight"]) for e in s.envs if e["connected"]) or 1.0
            weight = max(MIN_ENV_WEIGHT, env["max_context_len"] * env["weight"] / total)
            group_size = max(1, int(env["group_size"]))
            sequences = sum(len(g.get("tokens") or []) for g in s.queue)
            own = sum(len(g.get("tokens") or []) for g in s.queue if g.get("env_id") == env_id)
            max_group = max([len(g.get("tokens") or []) for g in s.queue] + [1])
            return {
                "current_step": s.step,
                "queue_size": sequences // group_size,
                "unallocated_fraction": 1.0,
                "self_queue_size": own // group_size,
                "max_group_size": max_group,
                "env_weight": weight,
            }
    if path == "/reset_data" and method == "GET":
        with s.lock:
            s.reset()
        return "Reset successful"
    raise HttpError(404, "Not Found")


class Handler(BaseHTTPRequestHandler):
    server_version = "demo-run-api/1.0"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - signature from the base class
        pass  # no access log: the supervisor polls /status often

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        if length <= 0:
            return None
        raw = self.rfile.read(length)
        if "gzip" in (self.headers.get("Content-Encoding") or "").lower():
            try:
                raw = gzip.decompress(raw)
            except OSError:
                raise HttpError(400, "Invalid gzip payload") from None
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise HttpError(422, "body is not valid JSON") from None

    def _dispatch(self, method: str) -> None:
        url = urlparse(self.path)
        try:
            body = self._body()
            result = handle(method, url.path.rstrip("/") or "/", parse_qs(url.query), body)
            status = 200
        except HttpError as e:
            status, result = e.status, {"detail": e.detail}
        except Exception as e:  # noqa: BLE001 - answer 500 rather than drop the connection
            status, result = 500, {"detail": f"internal error: {e}"}
        if isinstance(result, str):
            payload, ctype = result.encode("utf-8"), "text/plain; charset=utf-8"
        else:
            payload, ctype = json.dumps(result).encode("utf-8"), "application/json"
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        self._dispatch("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._dispatch("POST")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Demo Atropos trajectory API (run-api)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--reload", action="store_true", help="accepted for compatibility; ignored")
    args = parser.parse_args(argv)
    try:
        server = ThreadingHTTPServer((args.host, args.port), Handler)
    except OSError as e:
        print(f"ERROR: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr, flush=True)
        return 1
    server.daemon_threads = True
    print(f"INFO:     Uvicorn running on http://{args.host}:{args.port} (Press CTRL+C to quit)", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
