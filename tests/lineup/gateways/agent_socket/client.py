"""A synchronous ``lineup.agent.v1`` test client over a real WebSocket, and live-server helpers.

``AgentSocket`` speaks to a live Daphne with the ``websockets`` library (its sync client: the
test thread can call Django services between frames). It separates *answers* (the one frame
each client frame gets back, in order) from *pushes* (``tool.result``, ``user.message``,
``interaction.resolved``, which may arrive between answers): ``request`` returns the next
answer and keeps pushes aside for ``push``. Every frame received is kept in ``received``.

``Daphne`` is one live server process; ``log_events`` parses its JSON log lines (stderr).
``row_counts`` counts every Runtime/Interact table, so a test can show that nothing changed.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from lineup.gateways.agent_socket.frames import PROTOCOL
from tests.support.processes import ManagedProcess

PUSH_TYPES = frozenset({"tool.result", "user.message", "interaction.resolved"})
TIMEOUT = 10.0


class Closed(AssertionError):
    """The server closed the connection while a frame was expected."""

    def __init__(self, code: int | None, reason: str) -> None:
        super().__init__(f"connection closed ({code}) {reason}")
        self.code = code


@dataclass
class AgentSocket:
    """One Agent connection to ``/ws/agent/``."""

    url: str
    ws: ClientConnection = field(init=False)
    pushed: list[dict[str, Any]] = field(default_factory=list)  # pushes not yet taken by push()
    received: list[tuple[float, dict[str, Any]]] = field(default_factory=list)  # (monotonic, frame)
    welcome: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        # No compression: a 10 MB frame is 10 MB on the wire. No pings: only protocol frames.
        self.ws = connect(self.url, compression=None, ping_interval=None, open_timeout=10, max_size=2**22, legacy=True)

    # --- sending ---------------------------------------------------------------------------

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send(json.dumps(frame, ensure_ascii=False))

    def send_raw(self, data: str | bytes) -> None:
        self.ws.send(data)

    # --- receiving -------------------------------------------------------------------------

    def _read(self, timeout: float) -> dict[str, Any]:
        try:
            raw = self.ws.recv(timeout=timeout)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            raise Closed(code, closed.rcvd.reason if closed.rcvd else "") from None
        frame = json.loads(raw)
        self.received.append((time.monotonic(), frame))
        return frame

    def answer(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next frame that is not a push (pushes on the way are kept for ``push``)."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no answer within {timeout}s; pushes meanwhile: {self.pushed}")
            try:
                frame = self._read(remaining)
            except TimeoutError:
                continue
            if frame["type"] in PUSH_TYPES:
                self.pushed.append(frame)
            else:
                return frame

    def request(self, frame: dict[str, Any] | str | bytes, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Send one frame (a dict, or raw text/bytes) and return its answer."""
        if isinstance(frame, dict):
            self.send(frame)
        else:
            self.send_raw(frame)
        return self.answer(timeout)

    def push(self, frame_type: str, timeout: float = TIMEOUT, **match: Any) -> dict[str, Any]:
        """The next push of ``frame_type`` (whose fields equal ``match``), kept or arriving within ``timeout``."""

        def fits(frame: dict[str, Any]) -> bool:
            return frame["type"] == frame_type and all(frame.get(k) == v for k, v in match.items())

        for index, frame in enumerate(self.pushed):
            if fits(frame):
                return self.pushed.pop(index)
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no {frame_type} {match or ''} within {timeout}s; kept: {self.pushed}")
            try:
                frame = self._read(remaining)
            except TimeoutError:
                continue
            if fits(frame):
                return frame
            if frame["type"] not in PUSH_TYPES:
                raise AssertionError(f"unexpected {frame} while waiting for {frame_type}")
            self.pushed.append(frame)

    def frames_within(self, seconds: float) -> list[dict[str, Any]]:
        """Everything that arrives in the next ``seconds`` (kept pushes included): for "nothing more"."""
        frames = list(self.pushed)
        self.pushed.clear()
        deadline = time.monotonic() + seconds
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                frames.append(self._read(remaining))
            except TimeoutError:
                break
        return frames

    def close_code(self, timeout: float = TIMEOUT) -> int | None:
        """Read until the server closes; return its close code (fail if it does not close)."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"the server did not close within {timeout}s")
            try:
                frame = self._read(remaining)
            except Closed as closed:
                return closed.code
            except TimeoutError:
                continue
            self.pushed.append(frame)

    # --- protocol steps ----------------------------------------------------------------------

    def hello(self, token: str) -> dict[str, Any]:
        welcome = self.request({"type": "hello", "token": token, "protocol": PROTOCOL})
        assert welcome["type"] == "welcome", welcome
        self.welcome = welcome
        return welcome

    def inventory(self, conversation_id: str) -> dict[str, Any]:
        inventory = self.request({"type": "inventory.get", "conversation_id": conversation_id})
        assert inventory["type"] == "inventory", inventory
        return inventory

    def start(self, conversation_id: str, call_id: str, seconds: int, **extra: Any) -> dict[str, Any]:
        revision = self.inventory(conversation_id)["revision"]
        return self.request(
            {
                "type": "tool.call",
                "conversation_id": conversation_id,
                "source_tool_call_id": call_id,
                "tool": "pomodoro.start",
                "arguments": {"duration_seconds": seconds, **extra},
                "inventory_revision": revision,
            }
        )

    def call(
        self, conversation_id: str, call_id: str, tool: str, arguments: dict[str, Any], revision: str
    ) -> dict[str, Any]:
        return self.request(
            {
                "type": "tool.call",
                "conversation_id": conversation_id,
                "source_tool_call_id": call_id,
                "tool": tool,
                "arguments": arguments,
                "inventory_revision": revision,
            }
        )

    def ack(self, outbox_id: str, conversation_id: str) -> None:
        """Ack, then wait until the server handled it: ``outbox.ack`` has no answer, but frames are
        handled in order, so the answer to the ``inventory.get`` behind it proves the ack was done."""
        self.send({"type": "outbox.ack", "outbox_id": outbox_id})
        answer = self.answer_to_barrier(conversation_id)
        assert answer["type"] == "inventory", answer

    def answer_to_barrier(self, conversation_id: str) -> dict[str, Any]:
        return self.request({"type": "inventory.get", "conversation_id": conversation_id})

    def close(self) -> None:
        self.ws.close()


# --- live servers ------------------------------------------------------------------------------


@dataclass
class Daphne:
    """One live ``daphne lineup.asgi:application`` process."""

    name: str
    port: int
    process: ManagedProcess

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/agent/"

    def log_events(self, event: str | None = None, **match: Any) -> list[dict[str, Any]]:
        """The JSON log lines of this process (``event`` and fields equal to ``match``, if given)."""
        lines = []
        for line in self.process.log_text().splitlines():
            if not line.startswith("{"):
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if event is not None and record.get("event") != event:
                continue
            if all(record.get(k) == v for k, v in match.items()):
                lines.append(record)
        return lines


def row_counts() -> dict[str, int]:
    """Rows in every Runtime and Interact table (and users): equal before and after = nothing written."""
    models = [*apps.get_app_config("runtime").get_models(), *apps.get_app_config("interact").get_models()]
    # Open connections are bookkeeping of the sockets a test opens, not state a frame writes.
    models.remove(apps.get_model("runtime", "AgentConnection"))
    models.append(apps.get_model("auth", "User"))
    return {model._meta.label: model.objects.count() for model in models}
