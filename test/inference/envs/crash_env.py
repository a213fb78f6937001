"""An environment whose setup fails: process mode prints a traceback and exits 1."""
import os
import sys

from atroposlib.envs.base import BaseEnv


class CrashEnv(BaseEnv):
    """Crashes on purpose, after leaking its key to stderr (the bot must redact it)."""

    name = "crash"

    async def setup(self):
        print(f"using key {os.environ.get('OPENAI_API_KEY')}", file=sys.stderr, flush=True)
        raise RuntimeError("dataset missing: crashing on purpose")

    async def get_next_item(self):
        return None

    async def evaluate(self, *args, **kwargs):
        pass


if __name__ == "__main__":
    CrashEnv.cli()
