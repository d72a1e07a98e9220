"""Desktop acceptance: the real native window (``python -m lineup.desktop``) under an Xvfb the test starts.

Each test starts its own Xvfb on a free display and runs the Desktop Host exactly as a person
does, with no URL configured, so the host starts the embedded server itself (``run_embedded``,
on the pytest-django PostgreSQL test database and the test's Redis, with the in-process deadline
scheduler and the reference Agent), logs in and opens the window. Qt WebEngine's DevTools port
(``QTWEBENGINE_REMOTE_DEBUGGING``) lets Playwright drive that window's page over CDP; the window
itself is found, closed and minimised through X (``tests/lineup/desktop/x11.py``), and screenshots are
the X window's pixels (``tests/lineup/desktop/grab.py``).

The screen lock comes from a session D-Bus the test starts (``dbus-daemon``) with a screen saver
on it (``tests/lineup/desktop/screensaver.py``); the desktop's notifications from a notification
service on such a bus (``tests/lineup/desktop/notification_daemon.py``). ``.ci/run`` installs Xvfb, xdotool, D-Bus and the X
libraries Qt's xcb plugin loads; a test fails, never skips, when one is missing.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.lineup.desktop import x11
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

WINDOW_TITLE = "LineUp"
WINDOW_SIZE = "1200x760"
UI_TIMEOUT_MS = 10_000
SCREENSHOTS_DIR = os.environ.get("LINEUP_SCREENSHOTS_DIR", "")  # e.g. docs/screenshots, to refresh them
SERVER_STARTED = re.compile(r"desktop\.server_started\s+pid=(?P<pid>\d+) url=http://127\.0\.0\.1:(?P<port>\d+)")
AGENT_CONNECTED = re.compile(r"reference_agent\.connected")
WORKSPACE_CONNECTED = re.compile(r"workspace\.connected")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_tests_under(items, Path(__file__).parent, pytest.mark.desktop)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "desktop: the Desktop Host's native window under Xvfb")


@pytest.fixture(scope="package")
def playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture
def xvfb(request, tmp_path) -> Iterator[str]:
    """An X server of our own: ``:N`` for the first N with no lock file that starts."""
    if shutil.which("Xvfb") is None:
        pytest.fail("Xvfb is missing: apt-get install xvfb xdotool (.ci/run does)", pytrace=False)
    with supervised_processes(request, tmp_path / "x") as processes:
        for number in range(90 + os.getpid() % 50, 400):
            if Path(f"/tmp/.X{number}-lock").exists():
                continue
            argv = ["Xvfb", f":{number}", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"]
            xvfb = processes.start(f"xvfb-{number}", argv, env=dict(os.environ))
            socket_path = Path(f"/tmp/.X11-unix/X{number}")

            def up(xvfb: ManagedProcess = xvfb, socket_path: Path = socket_path) -> bool:
                return socket_path.exists() or not xvfb.alive

            wait_for(up, timeout=10, what=f"Xvfb :{number}")
            if xvfb.alive:
                yield f":{number}"
                return
        pytest.fail("no free X display for Xvfb", pytrace=False)


@dataclass
class DesktopHost:
    """``python -m lineup.desktop`` in a test: its process, its window and its page."""

    processes: ProcessSupervisor
    display: str
    data_dir: Path
    playwright: Any
    screenshots: Path
    process: ManagedProcess | None = None
    server_port: int = 0
    server_pids: list[int] = field(default_factory=list)
    window: int = 0
    page: Any = None
    starts: int = 0
    cdp_port: int = 0
    bus_address: str = ""  # a session D-Bus of the test's (``session_bus``); none by default
    env: dict[str, str] = field(default_factory=dict)  # more environment for the next start (a language, fonts)
    _browser: Any = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_port}"

    def start(self, *, via_manage_py: bool = False) -> DesktopHost:
        """Start the host with nothing configured (``python -m lineup.desktop``, or
        ``manage.py run_desktop``); wait for its window, its page and the Agent."""
        self.starts += 1
        self.cdp_port = free_port()
        env = lineup_env(
            LINEUP_SCHEDULER="embedded",
            LINEUP_DATA_DIR=str(self.data_dir),
            LINEUP_OUTBOX_REDELIVERY_SECONDS="1",
            DISPLAY=self.display,
            QT_QPA_PLATFORM="xcb",
            QTWEBENGINE_REMOTE_DEBUGGING=f"127.0.0.1:{self.cdp_port}",
            QTWEBENGINE_DISABLE_SANDBOX="1",  # root in CI; Chromium's OS sandbox, not the iframe's
        )
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the server keeps Django's async-safety check
        env.pop("LINEUP_DESKTOP_URL", None)
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)  # never the session bus of whoever runs the tests
        if self.bus_address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.bus_address
        env.update(self.env)
        entry = [str(ROOT / "manage.py"), "run_desktop"] if via_manage_py else ["-m", "lineup.desktop"]
        argv = [PYTHON, *entry, "--size", WINDOW_SIZE]
        self.process = self.processes.start(f"desktop-{self.starts}", argv, env=env)
        started = self.process.wait_for_log(SERVER_STARTED, timeout=60)
        self.server_port = int(started["port"])
        self.server_pids.append(int(started["pid"]))
        self.process.wait_for_log(AGENT_CONNECTED, timeout=30)
        self.find_window()
        self.wait(lambda: port_open(self.cdp_port), "Qt WebEngine's DevTools port", timeout=30)
        # Attach once the page is up (its socket connected, so it is signed in): Playwright attached
        # in the middle of the window's first navigation waits for a frame that never commits.
        self.process.wait_for_log(WORKSPACE_CONNECTED, timeout=30)
        # no_defaults: Qt WebEngine's DevTools refuse Browser.setDownloadBehavior, which Playwright
        # otherwise sends to the default context (microsoft/playwright#36961).
        self._browser = self.playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{self.cdp_port}", no_defaults=True)
        self.page = self.wait(self._workspace_page, "the window to show /workspace/", timeout=30)
        self.page.set_default_timeout(UI_TIMEOUT_MS)
        self.page.wait_for_selector("body[data-ready='true'][data-connection='open']")
        return self

    def find_window(self) -> int:
        """The host's top-level X window, looked up again each time: Qt may replace the native
        window after the first show (when the page's surface switches to GPU compositing), and an
        X request on the old id is ``BadWindow``."""
        self.window = self.wait(self._one_window, "the native window to be mapped", timeout=30)
        return self.window

    def _one_window(self) -> int | None:
        windows = x11.visible_windows(self.display, WINDOW_TITLE)
        return windows[0] if len(windows) == 1 else None

    def _workspace_page(self) -> Any:
        for context in self._browser.contexts:
            for page in context.pages:
                if page.url.startswith(f"{self.url}/workspace/"):
                    return page
        return None

    def wait(self, probe: Callable[[], Any], what: str, timeout: float = 15.0) -> Any:
        return wait_for(probe, timeout=timeout, what=what, describe=self.processes.describe)

    def close_window(self) -> int:
        """Click the close button (WM_DELETE_WINDOW); wait for the host to exit; return its exit code."""
        assert self.process is not None and self.process.popen is not None
        x11.close_window(self.display, self.find_window())
        self.wait(lambda: not self.process.alive, "the Desktop Host to exit", timeout=30)
        self._browser = None  # its CDP connection died with the host
        self.page = None
        return self.process.popen.returncode

    def screenshot(self, name: str) -> Path:
        """The native window as the X server shows it (to $LINEUP_SCREENSHOTS_DIR when set)."""
        self.screenshots.mkdir(parents=True, exist_ok=True)
        path = self.screenshots / f"{name}.png"
        env = {**os.environ, "DISPLAY": self.display, "QT_QPA_PLATFORM": "xcb"}
        self.processes.run(
            "grab", [PYTHON, str(Path(__file__).with_name("grab.py")), str(self.find_window()), str(path)], env=env
        )
        assert path.stat().st_size > 10_000 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        return path


@pytest.fixture
def desktop(request, tmp_path, transactional_db, xvfb, playwright) -> Iterator[DesktopHost]:
    target = ROOT / SCREENSHOTS_DIR if SCREENSHOTS_DIR else tmp_path / "screenshots"
    with supervised_processes(request, tmp_path) as processes:
        host = DesktopHost(
            processes=processes, display=xvfb, data_dir=tmp_path / "data", playwright=playwright, screenshots=target
        )
        try:
            yield host
        finally:
            # The host's server runs in a session of its own (it dies with the host on Linux, but
            # a failed test must not rely on that): kill it too, before the host's group.
            for pid in host.server_pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)


@dataclass
class ScreenSaver:
    """The session's screen saver (``tests/lineup/desktop/screensaver.py``) on a D-Bus of the test's own."""

    processes: ProcessSupervisor
    bus_address: str

    def set_locked(self, locked: bool) -> None:
        """Lock or unlock the screen as a session manager does: ``SetActive``, then ``ActiveChanged``."""
        argv = ["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.ScreenSaver"]
        argv += [
            "/org/freedesktop/ScreenSaver",
            "org.freedesktop.ScreenSaver.SetActive",
            f"boolean:{str(locked).lower()}",
        ]
        self.processes.run("dbus-send", argv, env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": self.bus_address})


@pytest.fixture
def session_bus(tmp_path, desktop) -> str:
    """A session bus (``dbus-daemon``) of the test's own, handed to the next ``desktop.start()``."""
    if shutil.which("dbus-daemon") is None:
        pytest.fail("dbus-daemon is missing: apt-get install dbus (.ci/run does)", pytrace=False)
    socket_path = tmp_path / "session-bus"
    address = f"unix:path={socket_path}"
    argv = ["dbus-daemon", "--session", f"--address={address}", "--nofork", "--nopidfile"]
    bus = desktop.processes.start("dbus-daemon", argv, env=dict(os.environ))
    desktop.wait(lambda: socket_path.exists() or not bus.alive, "the session bus to listen", timeout=10)
    desktop.bus_address = address
    return address


@pytest.fixture
def screensaver(desktop, session_bus) -> ScreenSaver:
    """The session's screen saver on the test's session bus."""
    env = {**os.environ, "DBUS_SESSION_BUS_ADDRESS": session_bus, "QT_QPA_PLATFORM": "offscreen"}
    saver = desktop.processes.start("screensaver", [PYTHON, str(Path(__file__).with_name("screensaver.py"))], env=env)
    saver.wait_for_log("screensaver.ready", timeout=20)
    return ScreenSaver(processes=desktop.processes, bus_address=session_bus)


@pytest.fixture
def notification_daemon(desktop, session_bus) -> ManagedProcess:
    """The desktop's notification service on the test's session bus; its log has what it showed."""
    env = {**os.environ, "DBUS_SESSION_BUS_ADDRESS": session_bus}
    script = str(Path(__file__).with_name("notification_daemon.py"))
    daemon = desktop.processes.start("notification-daemon", [PYTHON, script], env=env)
    daemon.wait_for_log("notification.ready", timeout=20)
    return daemon
