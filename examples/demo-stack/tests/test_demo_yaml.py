"""Unit tests of demo_yaml: run `python3 -m unittest discover -s tests` in examples/demo-stack."""

import datetime
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import demo_yaml  # noqa: E402
from demo_yaml import YAMLError, loads  # noqa: E402

# What PyYAML's yaml.dump(config, default_flow_style=False) writes for the seed tool's run config.
PYYAML_RUN_CONFIG = """\
env:
  ensure_scores_are_not_same: false
  eval_limit_ratio: 0.1
  group_size: 16
  max_token_length: 8192
  rollout_server_url: http://localhost:8000
  tokenizer_name: Qwen/Qwen3-8B
  use_wandb: true
  wandb_name: null
  operations:
  - add
  - mul
openai:
- api_key: x
  base_url: http://localhost:8001/v1
  model_name: Qwen/Qwen3-8B
  num_requests_for_eval: 256
  timeout: 3600
  weight: 1.0
slurm: false
testing: false
tinker:
  checkpoint_dir: ./temp/
  learning_rate: 4.0e-05
  lora_rank: 32
  wandb_project: atropos-tinker
  wandb_run_name: arithmetic-0a1b2c3d
"""


class PyYamlStyleTest(unittest.TestCase):
    def test_run_config(self):
        cfg = loads(PYYAML_RUN_CONFIG)
        self.assertEqual(cfg["env"]["group_size"], 16)
        self.assertIs(cfg["env"]["use_wandb"], True)
        self.assertIsNone(cfg["env"]["wandb_name"])
        self.assertEqual(cfg["env"]["operations"], ["add", "mul"])
        self.assertEqual(cfg["env"]["eval_limit_ratio"], 0.1)
        self.assertEqual(
            cfg["openai"],
            [
                {
                    "api_key": "x",
                    "base_url": "http://localhost:8001/v1",
                    "model_name": "Qwen/Qwen3-8B",
                    "num_requests_for_eval": 256,
                    "timeout": 3600,
                    "weight": 1.0,
                }
            ],
        )
        self.assertEqual(cfg["tinker"]["learning_rate"], 4e-05)
        self.assertIsInstance(cfg["tinker"]["learning_rate"], float)
        self.assertIs(cfg["slurm"], False)
        self.assertEqual(cfg["tinker"]["checkpoint_dir"], "./temp/")

    def test_indented_sequences_and_nesting(self):
        text = "a:\n  - x: 1\n    y:\n      - 2\n      - 3\n  - z\n  -\n    k: v\nb: {}\nc: []\n"
        self.assertEqual(loads(text), {"a": [{"x": 1, "y": [2, 3]}, "z", {"k": "v"}], "b": {}, "c": []})

    def test_nested_sequences(self):
        self.assertEqual(loads("- - 1\n  - 2\n- - 3\n"), [[1, 2], [3]])


class ScalarTest(unittest.TestCase):
    def test_yaml_1_1_resolution_as_pyyaml(self):
        cases = {
            "1": 1, "-5": -5, "+7": 7, "0x1F": 31, "0o17": "0o17", "017": 15, "0b101": 5, "1_000": 1000,
            "1:20": 80, "1.5": 1.5, "1e3": "1e3", "1.0e7": "1.0e7", "1.0e-05": 1e-05, "1.0e+07": 1e7,
            ".5": 0.5, "true": True, "False": False, "null": None, "~": None, "": None, "yes": True,
            "No": False, "ON": True, "off": False, "y": "y", "n": "n", "1.2.3": "1.2.3",
            "Qwen/Qwen3-8B": "Qwen/Qwen3-8B", "error_in_step:3": "error_in_step:3",
            "2024-01-31": datetime.date(2024, 1, 31),
        }
        for text, want in cases.items():
            with self.subTest(text=text):
                got = loads(f"v: {text}\n")["v"]
                self.assertEqual(got, want)
                self.assertIs(type(got), type(want))

    def test_merge_and_value_indicators_are_refused_as_values(self):
        for text in ("<<", "="):
            with self.subTest(text=text), self.assertRaises(YAMLError):
                loads(f"v: {text}\n")

    def test_special_floats(self):
        self.assertEqual(loads("a: .inf\nb: -.inf\n"), {"a": math.inf, "b": -math.inf})
        self.assertTrue(math.isnan(loads("a: .nan\n")["a"]))

    def test_quoted(self):
        cfg = loads(
            "a: 'it''s # not a comment'\n"
            'b: "tab\\tnew\\nline \\"q\\" \\u00e9 \\x41"\n'
            'c: "123"\n'
            "d: ''\n"
            "e: 'true'\n"
        )
        self.assertEqual(cfg["a"], "it's # not a comment")
        self.assertEqual(cfg["b"], 'tab\tnew\nline "q" \u00e9 A')
        self.assertEqual(cfg["c"], "123")
        self.assertEqual(cfg["d"], "")
        self.assertEqual(cfg["e"], "true")

    def test_quoted_keys(self):
        self.assertEqual(loads("'a b': 1\n\"c:d\": 2\n"), {"a b": 1, "c:d": 2})

    def test_comments(self):
        text = "# head\nenv:   # trailing\n  # inside\n  a: 1 # one\n\n  b: x#y\n# tail\n"
        self.assertEqual(loads(text), {"env": {"a": 1, "b": "x#y"}})

    def test_multiline_plain_and_quoted(self):
        text = "a: word word\n  more words\n\n  after blank\nb: 'one\n  two'\nc: \"x\n  y\"\n"
        self.assertEqual(loads(text), {"a": "word word more words\nafter blank", "b": "one two", "c": "x y"})

    def test_block_scalars(self):
        text = "lit: |\n  line1\n    indented\n  line3\nfold: >-\n  a\n  b\n\n  c\nkeep: |+\n  k\n\nnext: 1\n"
        cfg = loads(text)
        self.assertEqual(cfg["lit"], "line1\n  indented\nline3\n")
        self.assertEqual(cfg["fold"], "a b\nc")
        self.assertEqual(cfg["keep"], "k\n\n")
        self.assertEqual(cfg["next"], 1)

    def test_flow_collections(self):
        cfg = loads("a: [1, two, 'three', {x: 1, y: [true, null]}]\nb: {k: v, n: 2}\nc: [\n  1,\n  2\n]\n")
        self.assertEqual(cfg, {"a": [1, "two", "three", {"x": 1, "y": [True, None]}], "b": {"k": "v", "n": 2}, "c": [1, 2]})

    def test_document_markers_and_empty(self):
        self.assertEqual(loads("---\na: 1\n...\n"), {"a": 1})
        self.assertIsNone(loads(""))
        self.assertIsNone(loads("# only a comment\n"))
        self.assertEqual(loads("\ufeffa: 1\r\nb: 2\r\n"), {"a": 1, "b": 2})


class ErrorTest(unittest.TestCase):
    def test_rejects(self):
        bad = {
            "tab indentation": "a:\n\tb: 1\n",
            "duplicate key": "a: 1\na: 2\n",
            "anchor": "a: &x 1\n",
            "alias": "a: *x\n",
            "tag": "a: !!python/object:os.system x\n",
            "bad indentation": "a: 1\n   b: 2\n",
            "unterminated quote": "a: 'abc\n",
            "unterminated flow": "a: [1, 2\n",
            "two documents": "a: 1\n---\nb: 2\n",
            "dedent into nothing": "a:\n    b: 1\n  c: 2\n",
        }
        for name, text in bad.items():
            with self.subTest(name=name):
                with self.assertRaises(YAMLError):
                    loads(text)

    def test_error_names_line(self):
        with self.assertRaises(YAMLError) as ctx:
            loads("ok: 1\nok: 2\n")
        self.assertEqual(ctx.exception.line, 2)
        self.assertIn("line 2", str(ctx.exception))

    def test_load_file(self):
        path = os.path.join(os.path.dirname(__file__), "..", "locked-fields.yaml")
        cfg = demo_yaml.load(path)
        self.assertEqual(cfg["env"]["rollout_server_url"], "http://127.0.0.1:8000")
        self.assertEqual(cfg["openai"][0]["base_url"], "http://127.0.0.1:8001/v1")
        self.assertIs(cfg["env"]["use_wandb"], False)
        self.assertEqual(cfg["env"]["total_steps"], 20)


if __name__ == "__main__":
    unittest.main()
