"""Unit tests of the miniature cookbook: log-dir behaviours, checkpoint records, and the RL loop's learning, resume and fork."""

import asyncio
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import chz  # noqa: E402
from tinker_cookbook import checkpoint_utils, cli_utils  # noqa: E402
from tinker_cookbook.exceptions import ConfigurationError  # noqa: E402
from tinker_cookbook.recipes.math_rl.train import CLIConfig, build_config  # noqa: E402
from tinker_cookbook.rl.train import main  # noqa: E402


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


class Base(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir, True)
        env = mock.patch.dict(os.environ, {"TINKER_DEMO_STORE": os.path.join(self.dir, "store")})
        env.start()
        self.addCleanup(env.stop)

    def train(self, name, **fields):
        fields.setdefault("demo_step_seconds", 0.0)
        config = build_config(chz.replace(CLIConfig(), log_path=os.path.join(self.dir, name), **fields))
        with contextlib.redirect_stdout(io.StringIO()):
            asyncio.run(main(config))
        return config.log_path


class LogDirTest(Base):
    def test_behaviours(self):
        log = os.path.join(self.dir, "run")
        cli_utils.check_log_dir(log, "raise")  # absent: fine whatever the behaviour
        os.makedirs(log)
        with self.assertRaisesRegex(ConfigurationError, f"Log directory {log} already exists. Will not delete it."):
            cli_utils.check_log_dir(log, "raise")
        cli_utils.check_log_dir(log, "resume")
        self.assertTrue(os.path.isdir(log))
        with mock.patch("builtins.input", side_effect=EOFError("EOF when reading a line")):
            with self.assertRaises(EOFError):
                cli_utils.check_log_dir(log, "ask")
        with mock.patch("builtins.input", side_effect=["what", "delete"]):
            cli_utils.check_log_dir(log, "ask")
        self.assertFalse(os.path.exists(log))
        os.makedirs(log)
        cli_utils.check_log_dir(log, "delete")
        self.assertFalse(os.path.exists(log))


class CheckpointRecordTest(Base):
    def test_round_trip_and_last_resumable(self):
        rec = checkpoint_utils.CheckpointRecord.from_dict({"name": "000005", "batch": 5, "state_path": "s", "step": 9})
        self.assertEqual(rec.to_dict(), {"name": "000005", "batch": 5, "state_path": "s", "step": 9})
        with open(os.path.join(self.dir, "checkpoints.jsonl"), "w") as f:
            f.write(json.dumps({"name": "000005", "batch": 5, "state_path": "a", "sampler_path": "b"}) + "\n")
            f.write(json.dumps({"name": "000006", "batch": 6, "sampler_path": "c"}) + "\n")
        self.assertEqual(checkpoint_utils.get_last_checkpoint(self.dir).name, "000005")
        self.assertEqual(checkpoint_utils.get_last_checkpoint(self.dir, "sampler_path").name, "000006")
        self.assertIsNone(checkpoint_utils.get_last_checkpoint(os.path.join(self.dir, "none")))


class TrainingTest(Base):
    def test_learns_and_writes_real_shapes(self):
        log = self.train("a", save_every=10)
        metrics = read_jsonl(os.path.join(log, "metrics.jsonl"))
        self.assertEqual([m["step"] for m in metrics], list(range(50)))
        for key in ("env/all/reward/total", "progress/batch", "progress/done_frac", "optim/lr", "optim/entropy"):
            self.assertIn(key, metrics[0])
        first = sum(m["env/all/reward/total"] for m in metrics[:12]) / 12
        last = sum(m["env/all/reward/total"] for m in metrics[-12:]) / 12
        self.assertGreater(last, first + 0.4)
        records = read_jsonl(os.path.join(log, "checkpoints.jsonl"))
        self.assertEqual([r["name"] for r in records], ["000010", "000020", "000030", "000040", "final"])
        self.assertEqual([r["batch"] for r in records], [10, 20, 30, 40, 50])
        for r in records:
            self.assertRegex(r["state_path"], r"^tinker://[0-9a-f-]+:train:0/weights/" + r["name"] + "$")
            self.assertRegex(r["sampler_path"], r"^tinker://[0-9a-f-]+:train:0/sampler_weights/" + r["name"] + "$")
        with open(os.path.join(log, "config.json")) as f:
            self.assertEqual(json.load(f)["dataset_builder"]["group_size"], 4)

    def test_resume_continues_from_last_checkpoint_and_matches_an_uninterrupted_run(self):
        full = self.train("full", save_every=10)
        log = self.train("part", save_every=10, max_steps=25)  # stands in for a run stopped after step 24
        os.remove(os.path.join(log, "checkpoints.jsonl"))
        with open(os.path.join(full, "checkpoints.jsonl")) as f:  # keep only 000010 and 000020 of a run like it
            lines = f.readlines()[:2]
        with open(os.path.join(log, "checkpoints.jsonl"), "w") as f:
            f.writelines(lines)
        self.train("part", save_every=10)
        steps = [m["step"] for m in read_jsonl(os.path.join(log, "metrics.jsonl"))]
        self.assertEqual(steps, list(range(25)) + list(range(20, 50)))
        self.assertEqual(read_jsonl(os.path.join(log, "metrics.jsonl"))[-1], {
            **read_jsonl(os.path.join(full, "metrics.jsonl"))[-1],
            "time/total": read_jsonl(os.path.join(log, "metrics.jsonl"))[-1]["time/total"],
        })

    def test_fork_starts_from_the_given_weights(self):
        parent = self.train("parent", save_every=20)
        mid = read_jsonl(os.path.join(parent, "checkpoints.jsonl"))[0]
        fork = self.train("fork", load_checkpoint_path=mid["state_path"], max_steps=2, seed=1)
        fresh = self.train("fresh", max_steps=2, seed=1)
        parent_reward = read_jsonl(os.path.join(parent, "metrics.jsonl"))[20]["env/all/reward/total"]
        fork_reward = read_jsonl(os.path.join(fork, "metrics.jsonl"))[0]["env/all/reward/total"]
        fresh_reward = read_jsonl(os.path.join(fresh, "metrics.jsonl"))[0]["env/all/reward/total"]
        self.assertLess(abs(fork_reward - parent_reward), abs(fresh_reward - parent_reward))

    def test_error_fault_raises_in_that_step(self):
        with self.assertRaisesRegex(RuntimeError, "error in step 3"):
            self.train("err", demo_fault="error_in_step:3")
        self.assertEqual(len(read_jsonl(os.path.join(self.dir, "err", "metrics.jsonl"))), 3)


if __name__ == "__main__":
    unittest.main()
