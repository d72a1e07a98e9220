"""A reconnecting test Agent: one ``lineup.agent.v1`` connection at a time, outliving its server.

It is driven by the test's single thread (``pump``), so a scenario decides what happens when and
never races itself. Requests are pipelined — ``send`` does not wait for the answer — so a Daphne
the scenario kills can die with tool calls in flight, committed or not: the window a crash test
is about.

* Without a connection it connects, sends ``hello`` and ``inventory.get`` (the revision every
  call needs), retrying every ``RECONNECT_SECONDS`` while the server is down.
* Every ``tool.result`` is recorded raw, duplicates included, and acked at once (a real Agent acks
  once it has processed a result; an ack lost with its server means a redelivery, which the raw
  count shows). ``user.message`` frames are recorded and acked (``message.ack``) the same way, and
  so are ``interaction.resolved`` ones (``interaction.ack``).
* With ``urls`` it connects to each server in turn (several Daphnes behind the same services), so
  a dead server costs one failed attempt.
* Frames are handled in order with one answer each (docs/agent-protocol.md), so answers are
  matched to requests in order. When a connection ends, every request still waiting is answered
  ``None``: the caller sends the same call again (same ``source_tool_call_id``), which the
  protocol answers from the stored rows.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import ClientConnection, connect

from lineup.gateways.agent_socket.frames import PROTOCOL

PUSH_TYPES = frozenset({"tool.result", "user.message", "interaction.resolved"})
RECONNECT_SECONDS = 0.1
ANSWER_TIMEOUT = 15.0  # no answer this long: the connection is taken for dead (a busy 2-core box)

Answer = Callable[[dict[str, Any] | None], None]


@dataclass(frozen=True)
class Delivery:
    """One ``tool.result`` frame as it arrived."""

    outbox_id: str
    conversation_id: str
    source_tool_call_id: str
    result: dict[str, Any]
    connection: int  # which welcome (1, 2, ...) it arrived on
    at: float  # time.monotonic()


@dataclass
class CrashAgent:
    url: str
    token: str
    urls: list[str] = field(default_factory=list)  # when given, tried in turn instead of ``url``
    ws: ClientConnection | None = field(default=None, init=False)
    revision: str | None = field(default=None, init=False)  # set once this connection's inventory arrived
    welcomes: int = field(default=0, init=False)
    connect_attempts: int = field(default=0, init=False)
    deliveries: list[Delivery] = field(default_factory=list, init=False)
    user_messages: list[dict[str, Any]] = field(default_factory=list, init=False)  # raw, duplicates included
    resolutions: list[dict[str, Any]] = field(default_factory=list, init=False)  # interaction.resolved, raw
    unexpected: list[dict[str, Any]] = field(default_factory=list, init=False)  # error frames, bad answers
    drops: list[str] = field(default_factory=list, init=False)  # why each connection ended
    _waiting: deque[tuple[str, Answer, float]] = field(default_factory=deque, init=False)
    _next_attempt: float = field(default=0.0, init=False)

    # --- what the scenario uses --------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """Connected, welcomed and holding this connection's Inventory revision: calls may be sent."""
        return self.ws is not None and self.revision is not None

    def send(self, frame: dict[str, Any], on_answer: Answer) -> bool:
        """Send a client frame; ``on_answer`` gets its answer, or ``None`` if the connection ends first."""
        if self.ws is None:
            return False
        try:
            self.ws.send(json.dumps(frame))
        except (ConnectionClosed, OSError) as error:
            self._drop(f"send failed: {error!r}")
            return False
        self._waiting.append((frame["type"], on_answer, time.monotonic()))
        return True

    def tool_call(
        self, conversation_id: str, call_id: str, tool: str, arguments: dict[str, Any], on_answer: Answer
    ) -> bool:
        if not self.ready:
            return False
        frame = {
            "type": "tool.call",
            "conversation_id": conversation_id,
            "source_tool_call_id": call_id,
            "tool": tool,
            "arguments": arguments,
            "inventory_revision": self.revision,
        }
        return self.send(frame, on_answer)

    def pump(self, seconds: float) -> None:
        """(Re)connect if needed, then read and handle frames for up to ``seconds``."""
        deadline = time.monotonic() + seconds
        if self.ws is None:
            self._try_connect()
        while (remaining := deadline - time.monotonic()) > 0:
            if self.ws is None:
                time.sleep(min(remaining, max(0.0, self._next_attempt - time.monotonic())))  # a poll interval
                self._try_connect()
                continue
            if self._waiting and time.monotonic() - self._waiting[0][2] > ANSWER_TIMEOUT:
                self._drop(f"no answer to {self._waiting[0][0]} within {ANSWER_TIMEOUT}s")
                continue
            try:
                raw = self.ws.recv(timeout=min(remaining, 0.2))
            except TimeoutError:
                continue
            except (ConnectionClosed, OSError) as error:
                self._drop(f"recv: {error!r}")
                continue
            self._handle(json.loads(raw))

    def first_deliveries(self) -> dict[str, Delivery]:
        """Deliveries deduped by ``outbox_id`` (the first of each), as the protocol tells Agents to."""
        first: dict[str, Delivery] = {}
        for delivery in self.deliveries:
            first.setdefault(delivery.outbox_id, delivery)
        return first

    def sever(self) -> None:
        """Drop the connection abruptly (no close frame: the TCP connection just ends), as a network
        failure does; the Agent reconnects on its next ``pump``."""
        if self.ws is not None:
            with contextlib.suppress(OSError):
                self.ws.socket.shutdown(socket.SHUT_RDWR)
            self._drop("severed")

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()
            self.ws = None

    # --- connection ------------------------------------------------------------------------------

    def _try_connect(self) -> None:
        if time.monotonic() < self._next_attempt:
            return
        url = self.urls[self.connect_attempts % len(self.urls)] if self.urls else self.url
        self.connect_attempts += 1
        self._next_attempt = time.monotonic() + RECONNECT_SECONDS
        try:
            self.ws = connect(
                url,
                compression=None,
                ping_interval=None,
                open_timeout=3,
                close_timeout=1,
                max_size=2**22,
                legacy=True,  # a plain connection object, closed by _drop (websockets 17)
            )
        except (OSError, WebSocketException, TimeoutError):
            self.ws = None
            return
        self.send({"type": "hello", "token": self.token, "protocol": PROTOCOL}, self._on_welcome)

    def _on_welcome(self, answer: dict[str, Any] | None) -> None:
        if answer is None:
            return
        if answer["type"] != "welcome":
            # A hello that failed (e.g. internal_error while Redis is down) leaves this connection
            # useless: an Agent starts over with a new one.
            self.unexpected.append({"during": "hello", **answer})
            self._drop(f"hello answered {answer}")
            return
        self.welcomes += 1
        conversation_id = answer["conversations"][0]
        self.send({"type": "inventory.get", "conversation_id": conversation_id}, self._on_inventory)

    def _on_inventory(self, answer: dict[str, Any] | None) -> None:
        if answer is None:
            return
        if answer["type"] != "inventory":
            self.unexpected.append({"during": "inventory.get", **answer})
            self._drop(f"inventory.get answered {answer}")
            return
        self.revision = answer["revision"]

    def _drop(self, reason: str) -> None:
        """The connection is gone: forget it, answer whatever waited with ``None``, reconnect soon."""
        self.close()
        self.revision = None
        self.drops.append(reason)
        self._next_attempt = time.monotonic() + RECONNECT_SECONDS
        waiting, self._waiting = self._waiting, deque()
        for _, on_answer, _ in waiting:
            on_answer(None)

    # --- frames in -----------------------------------------------------------------------------

    def _handle(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "tool.result":
            self.deliveries.append(
                Delivery(
                    outbox_id=frame["outbox_id"],
                    conversation_id=frame["conversation_id"],
                    source_tool_call_id=frame["source_tool_call_id"],
                    result=frame["result"],
                    connection=self.welcomes,
                    at=time.monotonic(),
                )
            )
            if self.ws is not None:
                try:
                    self.ws.send(json.dumps({"type": "outbox.ack", "outbox_id": frame["outbox_id"]}))
                except (ConnectionClosed, OSError) as error:
                    self._drop(f"ack: {error!r}")
            return
        if frame["type"] == "user.message":
            self.user_messages.append(frame)
            if self.ws is not None:
                try:
                    self.ws.send(json.dumps({"type": "message.ack", "message_id": frame["message_id"]}))
                except (ConnectionClosed, OSError) as error:
                    self._drop(f"message ack: {error!r}")
            return
        if frame["type"] == "interaction.resolved":
            self.resolutions.append(frame)
            if self.ws is not None:
                ack = {"type": "interaction.ack", "conversation_id": frame["conversation_id"]}
                try:
                    self.ws.send(json.dumps({**ack, "interaction_id": frame["interaction_id"]}))
                except (ConnectionClosed, OSError) as error:
                    self._drop(f"interaction ack: {error!r}")
            return
        if frame["type"] in PUSH_TYPES:
            return
        if not self._waiting:
            self.unexpected.append({"during": "nothing waited", **frame})
            return
        _, on_answer, _ = self._waiting.popleft()
        on_answer(frame)
