"""Unit tests of the atroposlib stand-in (config model, CLI precedence) and the toy policy."""

import asyncio
import os
import random
import sys
import tempfile
import unittest
from typing import Dict, List, Literal, Optional

ROOT = os.path.join(os.path.dirname(__file__), "..")
sys.path.insert(0, ROOT)

from atroposlib._config_model import ValidationError  # noqa: E402
from atroposlib.envs.base import (  # noqa: E402
    APIServerConfig,
    BaseEnvConfig,
    EvalHandlingEnum,
    Field,
    _parse_flags,
    _resolve_servers,
    ServerManager,
    _UsageError,
)
from atroposlib.envs.server_handling.server_manager import OpenAIError  # noqa: E402
from demo_policy import SoftmaxPolicy, parse_choice_prompt  # noqa: E402
from tinker_atropos.environments._common import format_prompt, normalize_answer, score_choice  # noqa: E402
from tinker_atropos.environments.arithmetic_env import ArithmeticEnv, ArithmeticEnvConfig  # noqa: E402
from tinker_atropos.environments.letters_env import LettersEnv  # noqa: E402
from tinker_atropos.environments.parity_env import ParityEnv, ParityEnvConfig  # noqa: E402


class Sample(BaseEnvConfig):
    level: Literal["easy", "hard"] = Field(default="easy", description="d")
    ops: List[str] = Field(default=["a"], description="o")
    seed: Optional[int] = None
    ratio: float = Field(default=0.5, ge=0.0, le=1.0)
    table: Dict[str, int] = Field(default={}, description="t")


class ConfigModelTest(unittest.TestCase):
    def test_defaults_match_reference(self):
        c = BaseEnvConfig()
        self.assertEqual(c.group_size, 4)
        self.assertEqual(c.max_num_workers, -1)
        self.assertEqual(c.eval_handling, EvalHandlingEnum.STOP_TRAIN)
        self.assertEqual(c.rollout_server_url, "http://localhost:8000")
        self.assertEqual(c.total_steps, 1000)
        self.assertEqual(c.tokenizer_name, "NousResearch/DeepHermes-3-Llama-3-3B-Preview")
        self.assertIsNone(c.max_reasoning_tokens)
        self.assertEqual(list(BaseEnvConfig.model_fields)[:3], ["group_size", "max_num_workers", "max_eval_workers"])

    def test_subclass_fields_and_coercion(self):
        c = Sample(level="hard", ops="x, y", seed="7", ratio=1, group_size=8.0)
        self.assertEqual((c.level, c.ops, c.seed, c.ratio, c.group_size), ("hard", ["x", "y"], 7, 1.0, 8))
        self.assertEqual(Sample(ops='["p", "q"]').ops, ["p", "q"])
        self.assertIn("level", Sample.model_fields)
        self.assertEqual(Sample.model_fields["ratio"].le, 1.0)
        # mutable defaults are not shared between instances
        a, b = Sample(), Sample()
        a.ops.append("z")
        self.assertEqual(b.ops, ["a"])

    def test_validation_errors(self):
        for kwargs in (
            {"nope": 1},
            {"level": "medium"},
            {"ratio": 1.5},
            {"group_size": "many"},
            {"group_size": True},
            {"use_wandb": "maybe"},
            {"max_reasoning_tokens": 10},
            {"wandb_name": 5},
        ):
            with self.subTest(kwargs=kwargs):
                with self.assertRaises(ValidationError):
                    Sample(**kwargs)
        with self.assertRaises(ValueError):
            Sample().unknown_field = 1  # type: ignore[attr-defined]

    def test_dump_and_repr(self):
        c = Sample(seed=3)
        dumped = c.model_dump(mode="json")
        self.assertEqual(dumped["eval_handling"], "STOP_TRAIN")
        self.assertEqual(dumped["seed"], 3)
        self.assertTrue(repr(c).startswith("Sample(group_size=4,"))
        self.assertEqual(c.model_copy(update={"seed": 4}).seed, 4)


class CliTest(unittest.TestCase):
    def test_parse_flags(self):
        opts = _parse_flags(["--config", "r.yaml", "--env.group_size", "8", "--env.use_wandb=false",
                             "--openai.base_url", "http://h/v1", "--slurm", "--testing", "false"])
        self.assertEqual(opts["config"], "r.yaml")
        self.assertEqual(opts["env"], {"group_size": "8", "use_wandb": "false"})
        self.assertEqual(opts["openai"], {"base_url": "http://h/v1"})
        self.assertIs(opts["slurm"], True)
        self.assertIs(opts["testing"], False)
        with self.assertRaises(_UsageError):
            _parse_flags(["--bogus", "1"])
        with self.assertRaises(_UsageError):
            _parse_flags(["--env.group_size"])

    def test_server_precedence_and_api_key(self):
        defaults = [APIServerConfig(model_name="m0", base_url="http://a/v1", api_key="x")]
        old = os.environ.pop("OPENAI_API_KEY", None)
        try:
            servers = _resolve_servers(defaults, [{"base_url": "http://yaml/v1", "weight": 2.0, "extra": 1}],
                                       {"model_name": "cli"}, "run.yaml", "serve")
            # weight is not a field of the real APIServerConfig: dropped, as pydantic drops it
            self.assertEqual((servers[0].base_url, servers[0].model_name), ("http://yaml/v1", "cli"))
            self.assertFalse(hasattr(servers[0], "weight"))
            os.environ["OPENAI_API_KEY"] = "sk-env"
            # As in the real library, OPENAI_API_KEY never replaces a configured key ...
            for mode in ("process", "serve"):
                server = _resolve_servers(defaults, None, {}, None, mode)[0]
                self.assertEqual(ServerManager([server])._headers(server), {"Authorization": "Bearer x"})
            # ... it is what the OpenAI client sends when the config's api_key is None (YAML `api_key: null`)
            server = _resolve_servers(defaults, [{"api_key": None}], {}, "run.yaml", "process")[0]
            self.assertIsNone(server.api_key)
            self.assertEqual(ServerManager([server])._headers(server), {"Authorization": "Bearer sk-env"})
            os.environ.pop("OPENAI_API_KEY")
            with self.assertRaises(OpenAIError):
                ServerManager([server])
        finally:
            os.environ.pop("OPENAI_API_KEY", None)
            if old is not None:
                os.environ["OPENAI_API_KEY"] = old


class EnvironmentTest(unittest.TestCase):
    def test_items_are_well_formed(self):
        for cls in (ArithmeticEnv, ParityEnv, LettersEnv):
            cfg, servers = cls.config_init()
            env = cls(cfg, servers)
            asyncio.run(env.setup())
            rng = random.Random(0)
            for _ in range(200):
                item = env.make_item(rng)
                self.assertIn(item.answer, item.choices)
                self.assertEqual(len(set(item.choices)), len(item.choices))
                parsed = parse_choice_prompt(format_prompt(item.question, item.choices))
                self.assertEqual(parsed, (item.question, item.choices))
                self.assertEqual(env.score(item, item.answer), 1.0)
                wrong = next(c for c in item.choices if c != item.answer)
                self.assertEqual(env.score(item, wrong), 0.0)
                self.assertEqual(env.score(item, None), 0.0)

    def test_config_classes(self):
        self.assertEqual(ArithmeticEnv.config_init()[0].group_size, 8)
        self.assertIsInstance(ParityEnv.config_init()[0], ParityEnvConfig)
        self.assertIs(type(LettersEnv.config_init()[0]), BaseEnvConfig)
        self.assertEqual(LettersEnv.config_init()[0].total_steps, 30)
        self.assertIn("difficulty", ArithmeticEnvConfig.model_fields)

    def test_scoring_normalisation(self):
        self.assertEqual(normalize_answer("Answer: \\boxed{12}."), "12")
        self.assertEqual(score_choice("  ODD \n", "odd"), 1.0)
        self.assertEqual(score_choice("", "odd"), 0.0)

    def test_process_output_path_suffix(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "out.jsonl")
            open(path, "w").close()
            cfg, servers = ParityEnv.config_init()
            cfg.data_path_to_save_groups = path
            env = ParityEnv(cfg, servers)
            self.assertEqual(env.config.data_path_to_save_groups, os.path.join(d, "out_1.jsonl"))
            env.jsonl_writer.close()


class PolicyTest(unittest.TestCase):
    def test_reinforce_learns_arithmetic(self):
        cfg, servers = ArithmeticEnv.config_init()
        env = ArithmeticEnv(cfg, servers)
        asyncio.run(env.setup())
        rng = random.Random(1)
        policy = SoftmaxPolicy(seed=1)

        def accuracy() -> float:
            eval_rng = random.Random(99)
            items = [env.make_item(eval_rng) for _ in range(200)]
            return sum(policy.distribution(i.question, i.choices)[i.choices.index(i.answer)] for i in items) / len(items)

        before = accuracy()
        for _ in range(15):
            samples = []
            for _ in range(8):
                item = env.make_item(rng)
                answers = [a for a, _ in policy.sample(item.question, item.choices, n=8)]
                scores = [score_choice(a, item.answer) for a in answers]
                mean = sum(scores) / len(scores)
                samples += [(item.question, item.choices, a, s - mean) for a, s in zip(answers, scores)]
            policy.reinforce_update(samples, 4.0)
        self.assertLess(before, 0.3)
        self.assertGreater(accuracy(), 0.7)


if __name__ == "__main__":
    unittest.main()
