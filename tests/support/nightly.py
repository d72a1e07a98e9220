"""The nightly budget switch: ``LINEUP_NIGHTLY=1`` makes the exploring tests run their long form.

With it, the Hypothesis "nightly" profile is loaded (200 examples x 50 steps, tests/conftest.py) and
the race tests in tests/runtime/test_races.py run 100 rounds of 50 concurrent starts and 500 rounds
of deadline / interrupt / close / return-to-Interact. CI runs without it.
"""

from __future__ import annotations

import os

NIGHTLY = os.environ.get("LINEUP_NIGHTLY", "") == "1"
