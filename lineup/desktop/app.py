"""``python -m lineup.desktop`` / ``manage.py run_desktop``: start, log in, show, close in order.

1. The server: ``--url`` (or ``$LINEUP_DESKTOP_URL``) names a running one; without it the host
   starts the embedded default (``server.EmbeddedServer``) on a free port.
2. The login: the embedded login ``run_embedded`` printed (or ``--username`` and
   ``$LINEUP_DESKTOP_PASSWORD`` for a configured server) is used over HTTP, and the window opens
   ``/workspace/`` signed in. Without a usable login the window shows the sign-in page instead.
3. The page's notifications (a focus that ended while the window was not in front) are shown as
   the desktop's own (``notifications.py``).
4. The window runs until it is closed — by the person, or by SIGINT / SIGTERM, which close it the
   same way (its open MiniApps first). Only then is the embedded server stopped.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence

import structlog

from lineup.desktop.server import EmbeddedServer, Login, ServerError, login

logger = structlog.get_logger("lineup.desktop")


def configure_logging() -> None:
    """One plain line per host decision on stderr (the server logs its own, interleaved)."""
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.dev.ConsoleRenderer(colors=False),
        ],
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m lineup.desktop", description="LineUp in a native window.")
    parser.add_argument(
        "--url",
        default=os.environ.get("LINEUP_DESKTOP_URL", ""),
        help="a running LineUp server (default: start the embedded one)",
    )
    parser.add_argument("--port", type=int, default=0, help="port of the embedded server (default: a free one)")
    parser.add_argument("--username", default="lineup", help="the login to use (the embedded one by default)")
    parser.add_argument("--size", default="1200x760", help="window size, WIDTHxHEIGHT")
    return parser.parse_args(argv)


def prepare_chromium() -> None:
    """Qt WebEngine's Chromium refuses to start as root with its process sandbox on (containers,
    CI). That sandbox isolates renderer processes from the OS; the page's own iframe sandbox for
    MiniApp Surfaces is unaffected by it."""
    if hasattr(os, "geteuid") and os.geteuid() == 0 and not os.environ.get("QTWEBENGINE_DISABLE_SANDBOX"):
        os.environ["QTWEBENGINE_DISABLE_SANDBOX"] = "1"
        logger.warning("desktop.chromium_sandbox_disabled", reason="running as root")


def main(argv: Sequence[str] | None = None) -> int:
    configure_logging()
    args = parse_args(argv)
    width, height = (int(n) for n in args.size.lower().split("x"))
    try:
        import PySide6.QtWebEngineWidgets  # noqa: F401 - fail before a server is started for nothing
    except ImportError as error:
        logger.error("desktop.qt_missing", detail=str(error), fix="pip install -r requirements-desktop.txt")
        return 2
    prepare_chromium()

    server: EmbeddedServer | None = None
    if args.url:
        base_url = args.url.rstrip("/")
        password = os.environ.get("LINEUP_DESKTOP_PASSWORD", "")
        credentials = Login(args.username, password) if password else None
    else:
        server = EmbeddedServer(port=args.port, username=args.username)
        try:
            server.start()
        except ServerError as error:
            logger.error("desktop.server_failed", detail=str(error))
            return 1
        base_url, credentials = server.url, server.login
        logger.info("desktop.server_started", url=base_url, pid=server.process.pid if server.process else None)
    try:
        return run_window(base_url, credentials, width=width, height=height)
    finally:
        if server is not None:
            code = server.stop()
            logger.info("desktop.server_stopped", url=server.url, returncode=code)


def run_window(base_url: str, credentials: Login | None, *, width: int, height: int) -> int:
    # Qt is imported here, not at module level: ``manage.py help`` must not load Chromium.
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from lineup.desktop.notifications import NativeNotifier
    from lineup.desktop.screen_lock import watch_screen_lock
    from lineup.desktop.window import WorkspaceWindow

    app = QApplication([sys.argv[0]])
    app.setApplicationName("LineUp")
    window = WorkspaceWindow(base_url)
    window.resize(width, height)
    if credentials is not None:
        try:
            window.add_cookies(login(base_url, credentials))
            logger.info("desktop.logged_in", username=credentials.username)
        except (PermissionError, OSError) as error:
            logger.warning("desktop.login_failed", username=credentials.username, detail=str(error))
    watch_screen_lock(window.set_screen_locked)
    notifier = NativeNotifier(activate=window.bring_to_front)
    window.profile.setNotificationPresenter(notifier.present)

    # Ctrl+C / SIGTERM close the window like its close button does. Python runs signal handlers only
    # between bytecodes, so a timer lets the interpreter in while Qt's loop runs.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: QTimer.singleShot(0, window.close))
    heartbeat = QTimer()
    heartbeat.timeout.connect(lambda: None)
    heartbeat.start(200)

    window.show()
    window.open_workspace()
    try:
        return app.exec()
    finally:
        notifier.stop()
