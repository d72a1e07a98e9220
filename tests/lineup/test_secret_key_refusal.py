"""Start-up refuses the documentation's example key and keys too short to be secret (outside
LINEUP_DEBUG), and says how to make a good one."""

from __future__ import annotations

import os
import subprocess

import pytest

from lineup.secret_key import MIN_LENGTH, weak_key_problem
from tests.support.processes import PYTHON, ROOT

GOOD = "Zq3" + "a1B2c3D4e5" * 5


def _start(key: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LINEUP_")}
    env.update(
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/unused",
        REDIS_URL="redis://127.0.0.1:6379/15",
        LINEUP_SECRET_KEY=key,
        DJANGO_SETTINGS_MODULE="lineup.settings",
        **extra,
    )
    code = "import django; django.setup(); print('started')"
    return subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("CHANGE-ME-SECRET-KEY", "the example"),
        ("django-insecure-" + "k" * 50, "the example"),
        ("short-but-random-9f8e7d", "fewer than 50"),
        ("ab" * 40, "fewer than 5 different"),
    ],
)
def test_a_known_example_or_weak_key_is_refused_with_how_to_make_one(key, why):
    started = _start(key)
    assert started.returncode != 0
    assert why in started.stderr
    assert "secrets.token_urlsafe(50)" in started.stderr


def test_a_good_key_starts_and_debug_lets_a_weak_one_through():
    assert weak_key_problem(GOOD) is None and len(GOOD) >= MIN_LENGTH
    assert _start(GOOD).stdout.strip() == "started"
    assert _start("CHANGE-ME-SECRET-KEY", LINEUP_DEBUG="1").stdout.strip() == "started"
