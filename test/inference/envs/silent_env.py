"""An environment that ignores data_path_to_save_groups: process mode writes no file and exits 0."""

from atroposlib.envs.base import BaseEnv


class SilentEnv(BaseEnv):
    """Writes nothing anywhere, so any file at the output path is from before the test."""

    name = "silent"

    def _open_jsonl_writer(self):
        # Deliberately ignores the output path it was given.
        self.jsonl_writer = None

    async def setup(self):
        pass

    async def get_next_item(self):
        return None

    async def evaluate(self, *args, **kwargs):
        pass


if __name__ == "__main__":
    SilentEnv.cli()
