"""The Hypothesis budgets of tests/conftest.py: CI explores and remembers, nightly explores more."""

from __future__ import annotations

from pathlib import Path

from hypothesis import settings
from hypothesis.database import DirectoryBasedExampleDatabase

from tests.conftest import EXAMPLE_DATABASE

ROOT = Path(__file__).resolve().parents[1]


def test_the_ci_profile_draws_new_examples_and_keeps_failures_to_replay():
    """Not derandomized (a new draw every run), a bounded budget, the reproduce blob printed, and
    the example database in .hypothesis/examples (git-ignored) so a failure is tried first next run."""
    ci = settings.get_profile("ci")
    assert ci.derandomize is False
    assert (ci.max_examples, ci.stateful_step_count) == (70, 15)
    assert ci.print_blob is True
    assert ci.database is EXAMPLE_DATABASE
    assert EXAMPLE_DATABASE == DirectoryBasedExampleDatabase(ROOT / ".hypothesis" / "examples")
    assert ".hypothesis/" in (ROOT / ".gitignore").read_text().splitlines()


def test_the_nightly_profile_runs_200_examples_of_50_steps():
    nightly = settings.get_profile("nightly")
    assert (nightly.max_examples, nightly.stateful_step_count) == (200, 50)
    assert nightly.derandomize is False
    assert nightly.database is EXAMPLE_DATABASE
