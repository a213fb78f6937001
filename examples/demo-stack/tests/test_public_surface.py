"""The miniature atroposlib offers the real library's API and nothing more, and each demo environment
imports and instantiates against it (so it would run unchanged on the real package).

The lists below were written from NousResearch/atropos 296a0bc5 (atroposlib/envs/base.py,
envs/server_handling/server_manager.py and server_baseline.py); they are the reference, not the miniature.
"""

import ast
import asyncio
import importlib
import inspect
import os
import pkgutil
import sys
import unittest

ROOT = os.path.join(os.path.dirname(__file__), "..")
sys.path.insert(0, ROOT)

import atroposlib  # noqa: E402
from atroposlib.envs.base import BaseEnv, BaseEnvConfig  # noqa: E402
from atroposlib.envs.server_handling.server_manager import APIServerConfig, ServerManager  # noqa: E402

# Modules of the real package (the ones a miniature of base.py could need).
REAL_MODULES = {
    "atroposlib",
    "atroposlib.type_definitions",
    "atroposlib.envs",
    "atroposlib.envs.base",
    "atroposlib.envs.constants",
    "atroposlib.envs.server_handling",
    "atroposlib.envs.server_handling.server_manager",
    "atroposlib.envs.server_handling.server_baseline",
    "atroposlib.envs.server_handling.openai_server",
    "atroposlib.utils",
    "atroposlib.utils.cli",
    "atroposlib.utils.io",
    "atroposlib.utils.metrics",
    "atroposlib.utils.tokenize_for_trainer",
    "atroposlib.utils.tokenizers",
}

# Names an environment can import from the real atroposlib.envs.base (defined or imported there).
REAL_BASE_NAMES = {
    "APIServer", "APIServerConfig", "BaseEnv", "BaseEnvConfig", "BaseModel", "ENV_NAMESPACE",
    "EvalHandlingEnum", "Field", "Item", "Message", "NAMESPACE_SEP", "OPENAI_NAMESPACE", "ReasoningConfig",
    "ScoredDataGroup", "ScoredDataItem", "ServerBaseline", "ServerManager", "ServerManagerConfig", "UUID",
}
REAL_SERVER_MANAGER_NAMES = {
    "APIServer", "APIServerConfig", "ServerBaseline", "ServerManager", "ServerManagerConfig", "ReasoningConfig",
    "OpenAIServer", "SGLangServer", "VLLMServer", "TrlVllmServer", "ServerHarness", "ManagedServer",
    "DummyManagedServer",
}

REAL_BASE_ENV_METHODS = {
    "add_rollouts_for_wandb", "add_train_workers", "cleanup", "cli", "collect_trajectories",
    "collect_trajectory", "config_init", "create_rollout_table", "derived_batch_size", "env_manager",
    "env_step_checks", "evaluate", "evaluate_log", "get_cli_evaluate_config_cls", "get_cli_process_config_cls",
    "get_cli_serve_config_cls", "get_next_item", "get_server_info", "get_status", "handle_env",
    "handle_send_to_api", "load_checkpoint", "perf_stats", "postprocess_histories", "process_manager",
    "register_env", "save_checkpoint", "setup", "setup_wandb", "wandb_log",
}
REAL_BASE_ENV_ATTRIBUTES = {"name", "env_config_cls", "server_cls"}
REAL_ABSTRACT_METHODS = {"get_next_item", "evaluate"}
# Not abstract in the real class, but its body raises NotImplementedError: every environment overrides it.
REAL_REQUIRED_METHODS = {"setup"}

REAL_BASE_ENV_CONFIG_FIELDS = [
    "group_size", "max_num_workers", "max_eval_workers", "max_num_workers_per_node", "steps_per_eval",
    "max_token_length", "eval_handling", "eval_limit_ratio", "inference_weight", "batch_size",
    "max_batches_offpolicy", "tokenizer_name", "use_wandb", "rollout_server_url", "total_steps", "wandb_name",
    "num_rollouts_to_keep", "num_rollouts_per_group_for_logging", "ensure_scores_are_not_same",
    "data_path_to_save_groups", "data_dir_to_save_evals", "min_items_sent_before_logging", "include_messages",
    "min_batch_allocation", "worker_timeout", "thinking_mode", "reasoning_effort", "max_reasoning_tokens",
    "custom_thinking_prompt",
]
REAL_API_SERVER_CONFIG_FIELDS = {
    "timeout", "num_max_requests_at_once", "num_requests_for_eval", "model_name", "rolling_buffer_length",
    "server_type", "tokenizer_name", "api_key", "base_url", "n_kwarg_is_ignored", "health_check",
}
REAL_SERVER_MANAGER_METHODS = {
    "chat_completion", "completion", "dedicated_server", "get_logprobs", "managed_server",
    "tokens_and_logprobs_completion", "update_weight", "wait_for_sem",
}

ENV_DIR = os.path.join(ROOT, "tinker_atropos", "environments")
DEMO_ENVS = {
    "tinker_atropos.environments.arithmetic_env": "ArithmeticEnv",
    "tinker_atropos.environments.parity_env": "ParityEnv",
    "tinker_atropos.environments.letters_env": "LettersEnv",
}


def public_modules():
    names = {"atroposlib"}
    for info in pkgutil.walk_packages(atroposlib.__path__, "atroposlib."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.add(info.name)
    return names


def public_methods(cls):
    return {
        n
        for n, v in vars(cls).items()
        if not n.startswith("_") and not isinstance(v, type) and (callable(v) or isinstance(v, (classmethod, property)))
    }


class MiniatureSurfaceTest(unittest.TestCase):
    def test_no_module_the_real_package_lacks(self):
        self.assertEqual(public_modules() - REAL_MODULES, set())
        self.assertNotIn("atroposlib.utils.tokenizer", public_modules())

    def test_exported_names_exist_in_the_real_modules(self):
        base = importlib.import_module("atroposlib.envs.base")
        manager = importlib.import_module("atroposlib.envs.server_handling.server_manager")
        self.assertEqual(set(base.__all__) - REAL_BASE_NAMES, set())
        self.assertEqual(set(manager.__all__) - REAL_SERVER_MANAGER_NAMES, set())

    def test_base_env_methods_and_abstract_methods(self):
        self.assertEqual(public_methods(BaseEnv) - REAL_BASE_ENV_METHODS, set())
        attributes = {n for n in vars(BaseEnv) if not n.startswith("_")} - public_methods(BaseEnv)
        self.assertEqual(attributes - REAL_BASE_ENV_ATTRIBUTES, set())
        self.assertEqual(set(BaseEnv.__abstractmethods__), REAL_ABSTRACT_METHODS)
        with self.assertRaises(NotImplementedError):
            asyncio.run(BaseEnv.setup(object()))  # type: ignore[arg-type]

    def test_config_and_server_fields(self):
        self.assertEqual(list(BaseEnvConfig.model_fields), REAL_BASE_ENV_CONFIG_FIELDS)
        self.assertEqual(set(APIServerConfig.model_fields), REAL_API_SERVER_CONFIG_FIELDS)
        self.assertNotIn("weight", APIServerConfig.model_fields)
        self.assertEqual(APIServerConfig().api_key, "")
        self.assertEqual(public_methods(ServerManager) - REAL_SERVER_MANAGER_METHODS, set())

    def test_tokenizer_returns_token_ids_from_the_chat_template(self):
        env_cls = importlib.import_module("tinker_atropos.environments.parity_env").ParityEnv
        cfg, servers = env_cls.config_init()
        tokenizer = env_cls(cfg, servers).tokenizer
        ids = tokenizer.apply_chat_template([{"role": "user", "content": "hi"}], add_generation_prompt=True)
        self.assertTrue(ids and all(isinstance(t, int) for t in ids))
        text = tokenizer.apply_chat_template([{"role": "user", "content": "hi"}], tokenize=False)
        self.assertIsInstance(text, str)


class DemoEnvironmentsTest(unittest.TestCase):
    def test_imports_from_atroposlib_are_names_the_real_library_has(self):
        for filename in sorted(os.listdir(ENV_DIR)):
            if not filename.endswith(".py"):
                continue
            with open(os.path.join(ENV_DIR, filename), encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("atroposlib"):
                    self.assertIn(node.module, REAL_MODULES, f"{filename} imports {node.module}")
                    if node.module == "atroposlib.envs.base":
                        for alias in node.names:
                            self.assertIn(alias.name, REAL_BASE_NAMES, f"{filename} imports {alias.name}")
                    self.assertEqual(node.level, 0, f"{filename}: relative import fails under python FILE serve")

    def test_each_environment_instantiates_and_builds_a_group_the_real_base_keeps(self):
        for module_name, class_name in DEMO_ENVS.items():
            with self.subTest(env=class_name):
                env_cls = getattr(importlib.import_module(module_name), class_name)
                self.assertTrue(issubclass(env_cls, BaseEnv))
                self.assertFalse(inspect.isabstract(env_cls), f"{class_name} leaves {env_cls.__abstractmethods__}")
                for method in REAL_REQUIRED_METHODS | REAL_ABSTRACT_METHODS:
                    self.assertIsNot(getattr(env_cls, method), getattr(BaseEnv, method), f"{class_name}.{method}")
                cfg, servers = env_cls.config_init()
                env = env_cls(cfg, servers)
                asyncio.run(env.setup())
                item = asyncio.run(env.get_next_item())
                self.assertIsNotNone(item)
                common = importlib.import_module("tinker_atropos.environments._common")
                fake = type("Choice", (), {"message": type("M", (), {"content": item.answer})()})()
                group = common.build_scored_group(
                    env, common.build_messages(item), [fake] * cfg.group_size, lambda t: env.score(item, t), {}
                )
                # The real handle_send_to_api calls group.get("group_overrides", {}).get(...): never None.
                self.assertIsInstance(group.get("group_overrides", {}), dict)
                self.assertTrue(all(isinstance(t, int) for t in group["tokens"][0]))
                self.assertEqual(len(group["tokens"]), cfg.group_size)


if __name__ == "__main__":
    unittest.main()
