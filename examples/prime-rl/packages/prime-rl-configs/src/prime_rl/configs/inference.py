"""The inference server's config."""

from prime_rl.utils.config import BaseConfig


class ServerConfig(BaseConfig):
    host: str = "0.0.0.0"
    """Address to bind."""

    port: int = 8000
    """Port to serve on."""


class InferenceConfig(BaseConfig):
    server: ServerConfig = ServerConfig()

    gpu_memory_utilization: float = 0.9
    """Fraction of GPU memory for the engine."""
