"""What the browser and desktop acceptance tests share about driving Chromium with Playwright's sync API.

Playwright's sync API keeps an asyncio loop running in the test's thread while it is started,
and Django refuses ORM calls from a thread with a running loop. The tests' own ORM calls are
synchronous, so ``orm_beside_playwright`` allows them in the test process only; the servers under
test keep Django's async-safety check (their environments drop the variable).
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def orm_beside_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def mark_tests_under(items: list[pytest.Item], directory: Path, marker: pytest.MarkDecorator) -> None:
    """``marker`` on every collected test in ``directory`` (for a conftest's collection hook)."""
    for item in items:
        if item.path.is_relative_to(directory):
            item.add_marker(marker)
