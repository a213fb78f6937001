"""ScriptArguments and TrlParser: a recipe YAML (`--config x.yaml`) sets the parser's defaults, the command line wins.

As in TRL: the YAML is read with yaml.safe_load (YAML 1.1 typing), its `env:` mapping is exported to os.environ,
its keys become argparse defaults without any type conversion, and keys no dataclass takes are returned (with
`fail_with_unknown_args=False`, as `trl grpo` calls it, they are silently dropped) or raise a ValueError naming them.
"""

import argparse
import os
import sys
from dataclasses import dataclass, field
from typing import Iterable

from trl.scripts._hf_argparser import HfArgumentParser


@dataclass
class ScriptArguments:
    dataset_name: str | None = field(default=None, metadata={"help": "Path or name of the dataset to load."})
    dataset_config: str | None = field(default=None, metadata={"help": "Dataset configuration name."})
    dataset_train_split: str = field(default="train", metadata={"help": "Dataset split to use for training."})
    dataset_test_split: str = field(default="test", metadata={"help": "Dataset split to use for evaluation."})
    dataset_streaming: bool = field(default=False, metadata={"help": "Whether to stream the dataset."})


class TrlParser(HfArgumentParser):
    def __init__(self, dataclass_types=None, **kwargs):
        if dataclass_types is None:
            dataclass_types = []
        elif not isinstance(dataclass_types, Iterable):
            dataclass_types = [dataclass_types]
        for dataclass_type in dataclass_types:
            if "config" in dataclass_type.__dataclass_fields__:
                raise ValueError(
                    f"Dataclass {dataclass_type.__name__} has a field named 'config'. This field is reserved for the "
                    f"config file path and should not be used in the dataclass."
                )
        super().__init__(dataclass_types=dataclass_types, **kwargs)

    def parse_args_and_config(self, args=None, return_remaining_strings=False, fail_with_unknown_args=True):
        import yaml

        args = list(args) if args is not None else sys.argv[1:]
        if "--config" in args:
            config_index = args.index("--config")
            args.pop(config_index)
            config_path = args.pop(config_index)
            with open(config_path) as yaml_file:
                config = yaml.safe_load(yaml_file)
            if "env" in config:
                env_vars = config.pop("env", {})
                if not isinstance(env_vars, dict):
                    raise ValueError("`env` field should be a dict in the YAML file.")
                for key, value in env_vars.items():
                    os.environ[key] = str(value)
            config_remaining_strings = self.set_defaults_with_config(**config)
        else:
            config_remaining_strings = []
        output = self.parse_args_into_dataclasses(args=args, return_remaining_strings=return_remaining_strings)
        if return_remaining_strings:
            return output[:-1] + (config_remaining_strings + output[-1],)
        if fail_with_unknown_args and config_remaining_strings:
            raise ValueError(
                f"Unknown arguments from config file: {config_remaining_strings}. Please remove them, add them to the "
                "dataclass, or set `fail_with_unknown_args=False`."
            )
        return output

    def set_defaults_with_config(self, **kwargs) -> list[str]:
        used_keys = set()
        for action in self._actions:
            if not isinstance(action, argparse._SubParsersAction) and action.dest in kwargs:
                action.default = kwargs[action.dest]
                action.required = False
                used_keys.add(action.dest)
        return [item for key, value in kwargs.items() if key not in used_keys for item in (f"--{key}", str(value))]
