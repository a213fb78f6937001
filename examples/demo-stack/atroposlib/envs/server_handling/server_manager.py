"""OpenAI-compatible inference clients for environments (urllib, no SDK).

`ServerManager.chat_completion(messages=..., n=...)` POSTs {base_url}/chat/completions
and returns the answer with attribute access (`.choices[0].message.content`), like the
openai SDK objects the real ServerManager hands back.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
import urllib.error
import urllib.request
from types import SimpleNamespace
from typing import Any, Dict, List, Literal, Optional, Sequence, Union

from atroposlib._config_model import ConfigModel, Field

# The names the real module offers environments; the HTTP helpers below are the miniature's own.
__all__ = ["APIServerConfig", "ServerBaseline", "ServerManager"]


class ServerBaseline(ConfigModel):
    """Settings shared by every inference server."""

    timeout: int = Field(default=1200, description="Timeout for the request in seconds.")
    num_max_requests_at_once: int = Field(default=512, description="Maximum concurrent requests.")
    num_requests_for_eval: int = Field(default=64, description="Maximum concurrent requests for evaluation.")
    model_name: str = Field(default="default", description="The model name to use.")
    rolling_buffer_length: int = Field(default=1000, description="Length of the rolling buffer for metrics.")
    server_type: Literal["openai", "trl", "sglang", "vllm"] = Field(default="openai", description="Type of server.")
    tokenizer_name: str = Field(default="none", description="Tokenizer name, 'none' to use the model name.")


class APIServerConfig(ServerBaseline):
    """One OpenAI-compatible endpoint (the fields of the real class: no per-server weight)."""

    api_key: Optional[str] = Field(
        default="", description="API key for the server (None: the OpenAI client reads OPENAI_API_KEY)."
    )
    base_url: Optional[str] = Field(default="", description="Base URL for the server.")
    n_kwarg_is_ignored: bool = Field(default=False, description="Whether the n kwarg is ignored by this API server.")
    health_check: bool = Field(default=True, description="Whether to perform a health check on the server.")


class OpenAIError(Exception):
    """What the OpenAI client raises when it has no key at all."""


def resolve_api_key(cfg: "APIServerConfig") -> str:
    """The key the OpenAI client sends: the configured one, or OPENAI_API_KEY when the config's is None.
    An empty string is sent as it is (the client only falls back on None)."""
    if cfg.api_key is not None:
        return cfg.api_key
    key = os.environ.get("OPENAI_API_KEY")
    if key is None:
        raise OpenAIError(
            "The api_key client option must be set either by passing api_key to the client "
            "or by setting the OPENAI_API_KEY environment variable"
        )
    return key


class HTTPCallError(RuntimeError):
    """An HTTP endpoint answered with an error status or an unreadable body."""

    def __init__(self, url: str, message: str, status: Optional[int] = None):
        self.url = url
        self.status = status
        super().__init__(f"{url}: {message}")


class HTTPUnreachable(HTTPCallError):
    """The endpoint could not be contacted at all (connection refused, DNS, timeout)."""


# The names environments and the CLI use for inference failures.
InferenceError = HTTPCallError
InferenceUnreachable = HTTPUnreachable


def _to_namespace(obj: Any) -> Any:
    if isinstance(obj, dict):
        return SimpleNamespace(**{k: _to_namespace(v) for k, v in obj.items()})
    if isinstance(obj, list):
        return [_to_namespace(v) for v in obj]
    return obj


def root_url(base_url: str) -> str:
    """http://host:8001/v1 -> http://host:8001 (where /health lives)."""
    url = base_url.rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


def http_json(
    method: str,
    url: str,
    body: Any = None,
    headers: Optional[Dict[str, str]] = None,
    timeout: float = 30.0,
) -> Any:
    """One JSON request; raises InferenceUnreachable / InferenceError."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Accept", "application/json")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            raw = resp.read()
    except urllib.error.HTTPError as e:
        detail = e.read().decode("utf-8", errors="replace")[:500]
        raise InferenceError(url, f"HTTP {e.code}: {detail}", status=e.code) from None
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise InferenceUnreachable(url, f"cannot connect ({reason})") from None
    try:
        return json.loads(raw.decode("utf-8")) if raw else None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InferenceError(url, f"answer is not JSON: {raw[:200]!r}") from None


class ServerManager:
    """Spreads requests over the configured servers (round robin)."""

    def __init__(
        self,
        configs: Union[ServerBaseline, Sequence[APIServerConfig]],
        slurm: bool = False,
        testing: bool = False,
    ):
        if isinstance(configs, ServerBaseline) and not isinstance(configs, APIServerConfig):
            configs = [APIServerConfig(**configs.model_dump())]
        elif isinstance(configs, APIServerConfig):
            configs = [configs]
        self.servers: List[APIServerConfig] = list(configs)
        if not self.servers:
            raise ValueError("no inference server configured (openai section is empty)")
        for cfg in self.servers:
            if not cfg.base_url:
                raise ValueError("inference server has no base_url (set openai.base_url)")
        self.slurm = slurm
        self.testing = testing
        self._keys = {id(cfg): resolve_api_key(cfg) for cfg in self.servers}
        self._counter = 0
        self.last_success = time.monotonic()

    def _pick(self) -> APIServerConfig:
        server = self.servers[self._counter % len(self.servers)]
        self._counter += 1
        return server

    def _headers(self, cfg: APIServerConfig) -> Dict[str, str]:
        key = self._keys[id(cfg)]
        return {"Authorization": f"Bearer {key}"} if key else {}

    def _post(self, path: str, payload: Dict[str, Any], retries: int = 3) -> Any:
        cfg = self._pick()
        url = cfg.base_url.rstrip("/") + path  # type: ignore[union-attr]
        delay = 0.25
        for attempt in range(retries):
            try:
                answer = http_json("POST", url, payload, self._headers(cfg), timeout=float(cfg.timeout))
                self.last_success = time.monotonic()
                return answer
            except InferenceError as e:
                retryable = isinstance(e, InferenceUnreachable) or (e.status is not None and e.status >= 500)
                if not retryable or attempt == retries - 1:
                    raise
                time.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    async def chat_completion(self, **kwargs: Any) -> Any:
        """POST /chat/completions; kwargs are the OpenAI request fields (messages, n, ...)."""
        cfg = self.servers[0]
        kwargs.setdefault("model", cfg.model_name)
        answer = await asyncio.to_thread(self._post, "/chat/completions", kwargs)
        _check_choices(answer, cfg.base_url or "")
        return _to_namespace(answer)

    async def completion(self, **kwargs: Any) -> Any:
        """POST /completions (prompt-style)."""
        cfg = self.servers[0]
        kwargs.setdefault("model", cfg.model_name)
        answer = await asyncio.to_thread(self._post, "/completions", kwargs)
        _check_choices(answer, cfg.base_url or "")
        return _to_namespace(answer)

    def _wait_for_health(self, give_up_after: float, poll: float = 0.25) -> None:
        """Block until every server with health_check answers GET /health (or raise InferenceUnreachable)."""
        for cfg in self.servers:
            if not cfg.health_check:
                continue
            url = root_url(cfg.base_url or "") + "/health"
            started = time.monotonic()
            while True:
                try:
                    http_json("GET", url, timeout=5.0)
                    self.last_success = time.monotonic()
                    break
                except InferenceError as e:
                    if time.monotonic() - started > give_up_after:
                        raise InferenceUnreachable(url, f"no healthy answer for {give_up_after:.0f} s ({e})") from None
                    time.sleep(poll)


def _check_choices(answer: Any, url: str) -> None:
    if not isinstance(answer, dict) or not isinstance(answer.get("choices"), list):
        raise InferenceError(url, f"answer has no 'choices' list: {str(answer)[:200]}")
