"""The server behind the window: the embedded one this host starts, or one already running.

With no server configured the host runs ``manage.py run_embedded`` — the very command
``scripts/run`` runs, with the same database, login and reference Agent — as a child process on a
free port, reads the login it prints, and stops it (SIGTERM to its process group, SIGKILL after a
grace period) when the window has closed. With a configured URL it starts nothing and stops
nothing.

``login`` signs in over HTTP exactly as the login form does (CSRF cookie, then a POST), so the
window can open ``/workspace/`` already logged in; the session cookie is handed to the window's
(in-memory) cookie store by ``window.py``.
"""

from __future__ import annotations

import contextlib
import ctypes
import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_SECONDS = 60.0  # a first start migrates a fresh SQLite database
STOP_GRACE_SECONDS = 5.0
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_LOGIN_LINE = re.compile(r"^\s*login:\s+(?P<value>\S+)\s*$")
_PASSWORD_LINE = re.compile(r"^\s*password:\s+(?P<value>\S+)\s*$")


def _detach_and_die_with_parent() -> None:
    """In the child before exec: a session of its own (Ctrl+C in a terminal reaches the host, which
    closes the window's apps first and only then stops the server) and, on Linux, SIGTERM when the
    host dies without stopping it (a crash or SIGKILL must not leave a server behind)."""
    os.setsid()
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class ServerError(RuntimeError):
    """The embedded server did not come up (its output is in the message)."""


@dataclass(frozen=True)
class Login:
    username: str
    password: str


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def port_open(host: str, port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex((host, port)) == 0


@dataclass
class EmbeddedServer:
    """``manage.py run_embedded`` as a child process (which becomes Daphne: it execs)."""

    host: str = "127.0.0.1"
    port: int = 0
    username: str = "lineup"
    process: subprocess.Popen[str] | None = field(default=None, init=False)
    login: Login | None = field(default=None, init=False)
    _output: list[str] = field(default_factory=list, init=False)
    _reader: threading.Thread | None = field(default=None, init=False)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = START_TIMEOUT_SECONDS) -> EmbeddedServer:
        if self.port == 0:
            self.port = free_port(self.host)
        argv = [sys.executable, str(ROOT / "manage.py"), "run_embedded", "--host", self.host, "--port", str(self.port)]
        argv += ["--username", self.username]
        self.process = subprocess.Popen(
            argv,
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=_detach_and_die_with_parent,  # before any thread is started
        )
        self._reader = threading.Thread(target=self._read_output, name="embedded-server-output", daemon=True)
        self._reader.start()
        deadline = time.monotonic() + timeout
        while not port_open(self.host, self.port):
            if self.process.poll() is not None:
                raise ServerError(f"the embedded server exited with {self.process.returncode}:\n{self.output()}")
            if time.monotonic() > deadline:
                self.stop()
                raise ServerError(f"the embedded server did not listen within {timeout:.0f} s:\n{self.output()}")
            time.sleep(0.05)
        return self

    def _read_output(self) -> None:
        """Pass the server's stdout through, and pick the login out of run_embedded's banner."""
        assert self.process is not None and self.process.stdout is not None
        username = None
        for line in self.process.stdout:
            self._output.append(line)
            sys.stdout.write(line)
            sys.stdout.flush()
            if match := _LOGIN_LINE.match(line):
                username = match["value"]
            elif (match := _PASSWORD_LINE.match(line)) and username and not match["value"].startswith("("):
                # "(changed since it was created ...)" means the window shows the login form instead.
                self.login = Login(username, match["value"])

    def output(self) -> str:
        return "".join(self._output[-60:])

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, grace: float = STOP_GRACE_SECONDS) -> int | None:
        """SIGTERM the server's group (Daphne shuts down cleanly), SIGKILL what is left after ``grace``."""
        if self.process is None:
            return None
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        if self._reader is not None:
            self._reader.join(timeout=2)
        return self.process.returncode


def login(base_url: str, credentials: Login, timeout: float = 10.0) -> list[http.cookiejar.Cookie]:
    """Sign in through ``/accounts/login/`` as the form does; return the cookies (session, CSRF).

    Raises ``PermissionError`` when the server does not accept the login.
    """
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    login_url = f"{base_url}/accounts/login/"
    opener.open(login_url, timeout=timeout).read()
    csrf = next((c.value for c in jar if c.name == "csrftoken"), "")
    form = urllib.parse.urlencode(
        {"username": credentials.username, "password": credentials.password, "next": "/workspace/"}
    ).encode()
    request = urllib.request.Request(login_url, data=form, headers={"X-CSRFToken": csrf, "Referer": login_url})
    opener.open(request, timeout=timeout).read()
    if not any(c.name == "sessionid" for c in jar):
        raise PermissionError(f"{base_url} did not accept the login of {credentials.username!r}")
    return list(jar)
