"""Unit tests of the chz stand-in: fields, immutability, casting, and the entrypoint's errors and help."""

import contextlib
import dataclasses
import io
import os
import sys
import unittest
from typing import Literal, Optional

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import chz  # noqa: E402


@chz.chz
class Inner:
    num_minibatches: int = 2


@chz.chz
class Sample:
    """A sample config."""

    name: str = "run"
    rank: int = 32
    lr: float = 1e-5
    flag: bool = False
    path: str | None = None
    steps: Optional[int] = None
    mode: Literal["delete", "resume", "ask", "raise"] = "ask"
    tags: list = chz.field(default_factory=list, doc="free tags")
    inner: Inner = chz.field(default_factory=Inner)
    stream: Inner | None = None


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    code = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            value = chz.entrypoint(Sample, argv=argv)
        except SystemExit as e:
            value, code = None, e.code
    return value, code, out.getvalue(), err.getvalue()


class ChzShimTest(unittest.TestCase):
    def test_defaults_and_immutability(self):
        s = Sample()
        self.assertEqual((s.name, s.rank, s.inner.num_minibatches, s.stream), ("run", 32, 2, None))
        with self.assertRaises(dataclasses.FrozenInstanceError):
            s.rank = 3
        self.assertEqual(chz.replace(s, rank=4).rank, 4)
        self.assertEqual(chz.asdict(s)["inner"], {"num_minibatches": 2})
        with self.assertRaises(TypeError):
            Sample(bogus=1)

    def test_casts_by_annotation(self):
        s, code, _, _ = run(["rank=8", "lr=3e-4", "flag=true", "path=None", "steps=7", "mode=resume",
                             "inner.num_minibatches=5", "stream.num_minibatches=3", "rank=9"])
        self.assertIsNone(code)
        self.assertEqual((s.rank, s.lr, s.flag, s.path, s.steps, s.mode), (9, 3e-4, True, None, 7, "resume"))
        self.assertEqual((s.inner.num_minibatches, s.stream.num_minibatches), (5, 3))
        s, _, _, _ = run(["path=none", "flag=0"])
        self.assertEqual((s.path, s.flag), ("none", False))

    def test_unknown_key_exits_1_with_chz_message(self):
        _, code, _, err = run(["bogus=1"])
        self.assertEqual(code, 1)
        self.assertEqual(err, "Error:\nExtraneous argument 'bogus' to Blueprint for Sample (from command line)\n"
                              "Append --help to your command to see valid arguments\n")
        _, code, _, err = run(["rnk=1"])
        self.assertIn("Did you mean 'rank'?", err)
        _, _, _, err = run(["inner.bogus=1"])
        self.assertIn("Param 'inner' is closest valid ancestor", err)

    def test_bad_values_exit_1(self):
        for arg, cast in [("rank=abc", "int"), ("flag=yes", "bool"), ("steps=none", "int | None"),
                          ("mode=maybe", "Literal['delete', 'resume', 'ask', 'raise']")]:
            _, code, _, err = run([arg])
            self.assertEqual(code, 1, arg)
            value = arg.split("=")[1]
            self.assertIn(f"Could not interpret argument '{value}' provided for param '{arg.split('=')[0]}'...", err)
            self.assertIn(f"Could not cast '{value}' to {cast}", err)

    def test_argument_without_equals_raises(self):
        with self.assertRaises(ValueError):
            chz.entrypoint(Sample, argv=["rank"])

    def test_help_lists_fields_and_exits_1(self):
        _, code, out, _ = run(["--help"])
        self.assertEqual(code, 1)
        self.assertIn("Entry point: Sample", out)
        self.assertIn("A sample config.", out)
        for name in ("rank", "inner.num_minibatches", "stream.num_minibatches", "free tags"):
            self.assertIn(name, out)


if __name__ == "__main__":
    unittest.main()
