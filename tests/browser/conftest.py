"""Browser acceptance: Debian's Chromium, driven by Playwright, against a live Daphne.

Each test gets its own Daphne subprocess (``tests/support/processes.py``) on the pytest-django
test database (PostgreSQL) and the test's Redis, with the in-process deadline scheduler
(``LINEUP_SCHEDULER=embedded``) and the reference Agent pointed at that Daphne's own
``/ws/agent/`` — the embedded default's shape, on the production database. Daphne writes an
access log, so a test can prove that a request never reached the server.

Playwright can not download browsers here: it launches ``/usr/bin/chromium`` (``.ci/run``
installs Debian's ``chromium`` when it is missing). Its sync API runs an event loop in this
thread, so Django's ORM needs ``DJANGO_ALLOW_ASYNC_UNSAFE`` in these tests (set per test, never
for the server), and services that project to the channel layer must run ``off_the_loop``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.playwright import mark_tests_under, orm_beside_playwright  # noqa: F401 - a fixture
from tests.support.processes import (
    PYTHON,
    ROOT,
    ManagedProcess,
    ProcessSupervisor,
    free_port,
    lineup_env,
    port_open,
    supervised_processes,
    wait_for,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1200, "height": 760}
UI_TIMEOUT_MS = 10_000
PASSWORD = "calm-focus-pw-1"
AGENT_CONNECTED = re.compile(r"reference_agent\.connected")
SCREENSHOTS_DIR = os.environ.get("LINEUP_SCREENSHOTS_DIR", "")  # e.g. docs/screenshots, to refresh them


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_tests_under(items, Path(__file__).parent, pytest.mark.browser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: Playwright + Chromium against a live Daphne")


@dataclass
class LiveServer:
    """A Daphne serving ``lineup.asgi`` (with the reference Agent) for one test."""

    processes: ProcessSupervisor
    env: dict[str, str]
    port: int
    log_dir: Path
    daphne: ManagedProcess | None = None
    starts: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def access_log(self) -> Path:
        return self.log_dir / "access.log"

    def start(self, *, wait_for_agent: bool = True) -> None:
        self.starts += 1
        argv = [
            PYTHON,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(self.port),
            "--access-log",
            str(self.access_log),
            "lineup.asgi:application",
        ]
        self.daphne = self.processes.start(f"daphne-{self.starts}", argv, env=self.env)

        def listening() -> bool:
            if not self.daphne.alive:
                pytest.fail(f"daphne exited early\n{self.daphne.tail()}", pytrace=False)
            return port_open(self.port)

        self.wait(listening, "daphne to listen", timeout=30)
        if wait_for_agent:
            self.daphne.wait_for_log(AGENT_CONNECTED, timeout=30)

    def kill(self) -> None:
        """A crash: SIGKILL, no shutdown of anything."""
        assert self.daphne is not None
        self.daphne.kill()
        wait_for(lambda: not port_open(self.port), timeout=10, what="the port to close")

    def wait(self, probe: Callable[[], Any], what: str, timeout: float = 15.0) -> Any:
        return wait_for(probe, timeout=timeout, what=what, describe=self.processes.describe)

    def access_lines(self) -> list[str]:
        try:
            return self.access_log.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return []


@pytest.fixture
def web_user(django_user_model):
    """A person with a real (PBKDF2) password: the Daphne process checks it with its own hashers."""
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    hasher = PBKDF2PasswordHasher()
    user = django_user_model(username="ada")
    # Few iterations keep the test fast; Daphne upgrades the hash on the first login.
    user.password = hasher.encode(PASSWORD, hasher.salt(), iterations=1000)
    user.save()
    return user


@pytest.fixture
def conversation(web_user):
    from runtime.services.conversations import conversation_get_or_create_default

    return conversation_get_or_create_default(user=web_user)


@pytest.fixture
def server(request, tmp_path, transactional_db, web_user, conversation) -> Iterator[LiveServer]:
    with supervised_processes(request, tmp_path) as processes:
        port = free_port()
        env = lineup_env(
            LINEUP_SCHEDULER="embedded",
            LINEUP_REFERENCE_AGENT_URL=f"ws://127.0.0.1:{port}/ws/agent/",
            LINEUP_OUTBOX_REDELIVERY_SECONDS="1",
        )
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the server keeps Django's async-safety check
        live = LiveServer(processes=processes, env=env, port=port, log_dir=tmp_path)
        live.start()
        yield live


@pytest.fixture(scope="package")
def browser():
    # Package scope, not session: Playwright's sync API keeps an asyncio loop running in this
    # thread while it is started, and asgiref's async_to_sync refuses to run there — every test
    # collected after tests/browser would break. It stops when the last browser test is done.
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class PageWatch:
    """What a page said on its console and which JS errors it threw."""

    console: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def saw(self, pattern: str) -> bool:
        return any(re.search(pattern, line) for line in self.console)


def session_cookie(user, server: LiveServer) -> dict[str, Any]:
    """A logged-in Django session for ``user`` (the same database Daphne reads)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return {"name": settings.SESSION_COOKIE_NAME, "value": store.session_key, "url": server.url}


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB", timezone_id="UTC")
    ctx.set_default_timeout(UI_TIMEOUT_MS)
    yield ctx
    ctx.close()


@pytest.fixture
def watch() -> PageWatch:
    return PageWatch()


def watch_page(page, watch: PageWatch) -> None:
    page.on("console", lambda message: watch.console.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: watch.errors.append(str(error)))


@pytest.fixture
def workspace(context, server, web_user, watch):
    """The logged-in workspace page, once it has drawn its first snapshot."""
    context.add_cookies([session_cookie(web_user, server)])
    page = context.new_page()
    watch_page(page, watch)
    open_workspace(page, server)
    yield page
    assert not watch.errors, f"the page threw: {watch.errors}"


def open_workspace(page, server: LiveServer) -> None:
    page.goto(f"{server.url}/workspace/")
    page.wait_for_selector("body[data-ready='true']")


def screenshot(page, name: str, tmp_path: Path) -> Path:
    """Save a screenshot (to $LINEUP_SCREENSHOTS_DIR when set, e.g. docs/screenshots)."""
    target_dir = ROOT / SCREENSHOTS_DIR if SCREENSHOTS_DIR else tmp_path / "screenshots"
    target_dir.mkdir(parents=True, exist_ok=True)
    path = target_dir / f"{name}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 1000 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return path


def poll(probe: Callable[[], Any], what: str, timeout: float = 15.0, server: LiveServer | None = None) -> Any:
    return wait_for(probe, timeout=timeout, what=what, describe=server.processes.describe if server else None)
