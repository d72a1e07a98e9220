"""Hostile-input helpers shared by the Agent and workspace fuzz tests.

``InProcessSocket`` is one WebSocket connection to ``lineup.asgi.application`` through channels'
``WebsocketCommunicator``, driven from synchronous code: its event loop runs in a thread of its
own, so one connection can carry every example of a Hypothesis test (a new connection per
example would cost more than the frame it carries). The consumer's database work then runs in
asgiref's single sync thread on its own connection, which ``CONN_MAX_AGE=0`` closes after every
call; the tests are ``transaction=True``, so they see what it committed.

The strategies build frames from the frame JSON Schemas (``from_schema``) and break them: a
missing or an extra field, a value its field's schema refuses, an unknown ``type``.
``from_schema`` covers the keywords LineUp's schemas use and fails loudly on any other, so a new
schema shape is noticed here. (hypothesis-jsonschema 0.23.1, the latest release, does not work
with the Hypothesis pinned here: it uses a private ``many.more()`` that Hypothesis 6.170 removed.)
``database_state`` is every row of the Runtime and Interact tables (and users), so a test can
show that a refused frame changed nothing.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from channels.testing import WebsocketCommunicator
from django.apps import apps
from django.db import connections
from hypothesis import strategies as st

from runtime.manifests import StrictValidator

T = TypeVar("T")
REPLY_TIMEOUT = 30.0  # seconds: a deadline; a healthy in-process reply takes milliseconds, a loaded machine more
ROOT = Path(__file__).resolve().parents[2]

# Decision-log kinds a refusal may write (the refusal's own record, kept after the rollback).
REJECTION_EVENTS = frozenset({"tool.rejected", "lifecycle.rejected", "snapshot.rejected"})


class Closed(AssertionError):
    """The server closed the connection while a frame was expected."""

    def __init__(self, code: int | None) -> None:
        super().__init__(f"the server closed the connection ({code})")
        self.code = code


class LoopThread:
    """An asyncio event loop running in a daemon thread; ``call`` runs a coroutine on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="hostile-loop", daemon=True)
        self.thread.start()
        self.sockets: list[InProcessSocket] = []  # closed by in_process()

    def call(self, coroutine: Coroutine[Any, Any, T], timeout: float = REPLY_TIMEOUT * 2) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        async def close_database_connections() -> None:
            from channels.db import database_sync_to_async

            await database_sync_to_async(connections.close_all)()

        self.call(close_database_connections())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


@dataclass
class InProcessSocket:
    """One connection to ``path`` of the real ASGI application, from synchronous code."""

    runner: LoopThread
    path: str
    headers: list[tuple[bytes, bytes]]
    communicator: WebsocketCommunicator | None = None
    closed_code: int | None = None
    is_closed: bool = False

    def connect(self) -> tuple[bool, int | None]:
        async def start() -> tuple[bool, int | None]:
            from lineup.asgi import application

            # Built on the loop: the communicator starts the application as a task of it.
            self.communicator = WebsocketCommunicator(application, self.path, headers=self.headers)
            return await self.communicator.connect(timeout=REPLY_TIMEOUT)

        connected, code = self.runner.call(start())
        if not connected:
            self.is_closed, self.closed_code = True, code
        return connected, code

    def send(self, text: str | None = None, data: bytes | None = None) -> None:
        assert self.communicator is not None
        # Not send_to(): it refuses an empty text frame, which a client can send.
        message = (
            {"type": "websocket.receive", "text": text}
            if data is None
            else {"type": "websocket.receive", "bytes": data}
        )
        self.runner.call(self.communicator.send_input(message))

    def send_frame(self, frame: dict[str, Any]) -> None:
        self.send(text=json.dumps(frame, ensure_ascii=False))

    def receive(self, timeout: float = REPLY_TIMEOUT) -> dict[str, Any]:
        """The next frame the server sent; ``Closed`` if it closed the connection instead.

        A crash of the consumer re-raises here (the communicator hands the application's exception on).
        """
        assert self.communicator is not None
        if self.is_closed:
            raise Closed(self.closed_code)
        output = self.runner.call(self.communicator.receive_output(timeout), timeout=timeout + 5)
        if output["type"] == "websocket.close":
            self.is_closed, self.closed_code = True, output.get("code")
            raise Closed(self.closed_code)
        assert output["type"] == "websocket.send", output
        assert output.get("text") is not None, f"the server sent a binary frame: {output}"
        return json.loads(output["text"])

    def nothing_within(self, seconds: float) -> bool:
        assert self.communicator is not None
        return self.runner.call(self.communicator.receive_nothing(timeout=seconds))

    def close(self) -> None:
        if self.communicator is not None:
            self.runner.call(self.communicator.disconnect())


@contextmanager
def in_process(settings: Any) -> Iterator[LoopThread]:
    """The loop in-process connections run on, with a fresh in-memory channel layer; every
    connection opened on it is closed at the end.

    ``settings`` is pytest-django's fixture. Redelivery is pushed far out: a resend counts an
    attempt on the outbox row, a change no frame of the test made.
    """
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.LINEUP_OUTBOX_REDELIVERY_SECONDS = 3600
    channel_layers.backends = {}  # channels caches layer instances
    loop = LoopThread()
    try:
        yield loop
    finally:
        for sock in loop.sockets:
            sock.close()
        loop.stop()
        channel_layers.backends = {}


PUSHES = frozenset({"tool.result", "user.message", "interaction.resolved"})


class InProcessAgent:
    """One in-process ``/ws/agent/`` connection: answers in order, pushes kept aside (as AgentSocket)."""

    def __init__(self, runner: LoopThread) -> None:
        self.sock = InProcessSocket(runner, "/ws/agent/", [])
        runner.sockets.append(self.sock)
        connected, code = self.sock.connect()
        assert connected, code
        self.pushed: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] | None = None

    def answer(self) -> dict[str, Any]:
        while True:
            frame = self.sock.receive()
            if frame["type"] not in PUSHES:
                return frame
            self.pushed.append(frame)

    def request(self, frame: dict[str, Any] | str | bytes) -> dict[str, Any]:
        _send(self.sock, frame)
        return self.answer()

    def hello(self, token: str) -> dict[str, Any]:
        from lineup.gateways.agent_socket.frames import PROTOCOL

        welcome = self.request({"type": "hello", "token": token, "protocol": PROTOCOL})
        assert welcome["type"] == "welcome", welcome
        self.welcome = welcome
        return welcome

    def still_usable(self, conversation_id: str) -> None:
        inventory = self.request({"type": "inventory.get", "conversation_id": conversation_id})
        assert (inventory["type"], inventory.get("conversation_id")) == ("inventory", conversation_id), inventory

    def ack_pushed_results(self, conversation_id: str) -> None:
        """Ack every result pushed so far. Frames are handled in order, so a result the server
        sent before answering the first barrier is in by then, and the acks are done by the second."""
        self.still_usable(conversation_id)
        for frame in [f for f in self.pushed if f["type"] == "tool.result"]:
            self.sock.send_frame({"type": "outbox.ack", "outbox_id": frame["outbox_id"]})
            self.pushed.remove(frame)
        self.still_usable(conversation_id)


def page_headers(
    cookie: bytes, *, origin: str = "http://localhost", host: str = "localhost"
) -> list[tuple[bytes, bytes]]:
    """A browser's handshake headers for ``/ws/workspace/`` on ``host``: its ``Origin`` and session cookie."""
    return [(b"host", host.encode()), (b"origin", origin.encode()), (b"cookie", cookie)]


class InProcessPage:
    """One in-process ``/ws/workspace/`` connection with a session cookie; ``event`` frames kept aside."""

    def __init__(self, runner: LoopThread, cookie: str, origin: str = "http://localhost") -> None:
        from django.conf import settings

        header = f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()
        self.sock = InProcessSocket(runner, "/ws/workspace/", page_headers(header, origin=origin))
        runner.sockets.append(self.sock)
        connected, code = self.sock.connect()
        assert connected, code
        self.hello = self.sock.receive()
        assert self.hello["type"] == "hello", self.hello
        self.events: list[dict[str, Any]] = []

    def reply(self) -> dict[str, Any]:
        while True:
            frame = self.sock.receive()
            if frame["type"] != "event":
                return frame
            self.events.append(frame)

    def request(self, frame: dict[str, Any] | str | bytes) -> dict[str, Any]:
        _send(self.sock, frame)
        return self.reply()

    def still_usable(self) -> None:
        reply = self.request({"type": "snapshot.get", "request_id": "barrier"})
        assert (reply["type"], reply.get("request_id")) == ("snapshot", "barrier"), reply


def _send(sock: InProcessSocket, frame: dict[str, Any] | str | bytes) -> None:
    if isinstance(frame, dict):
        sock.send_frame(frame)
    elif isinstance(frame, bytes):
        sock.send(data=frame)
    else:
        sock.send(text=frame)


# --- the database ---------------------------------------------------------------------------------


def _models() -> list[Any]:
    models = [*apps.get_app_config("runtime").get_models(), *apps.get_app_config("interact").get_models()]
    models.append(apps.get_model("auth", "User"))
    # Open connections (their heartbeat moves ``seen_at``) are bookkeeping of the sockets, not state a frame writes.
    models.remove(apps.get_model("runtime", "AgentConnection"))
    return models


def database_state(*, ignore: dict[str, set[str]] | None = None) -> dict[str, list[tuple[str, str]]]:
    """Every row of every Runtime and Interact table and of users, but the decision log.

    Equal before and after a frame = the frame changed nothing (counts included). The decision
    log (``LifecycleEvent``) is left out: a refusal records itself there; see ``new_event_kinds``.
    ``ignore`` leaves out columns (``{"runtime.AgentToken": {"last_used_at"}}``). One query for
    all tables (each row as its primary key and its columns as text): it runs around every example.
    """
    rows: dict[str, list[tuple[str, str]]] = {}
    with connections["default"].cursor() as cursor:
        cursor.execute(_state_sql(json.dumps(ignore or {}, sort_keys=True, default=sorted)))
        for label, key, values in cursor.fetchall():
            rows.setdefault(label, []).append((key, values))
    return rows


@cache
def _state_sql(ignore_json: str) -> str:
    ignore = json.loads(ignore_json)
    quote = connections["default"].ops.quote_name
    selects = []
    for model in _models():
        label = model._meta.label
        if label == "runtime.LifecycleEvent":
            continue
        columns = [f.column for f in model._meta.concrete_fields if f.attname not in ignore.get(label, [])]
        values = " || '|' || ".join(f"COALESCE(CAST({quote(c)} AS TEXT), '<null>')" for c in columns)
        pk = quote(model._meta.pk.column)
        selects.append(f"SELECT '{label}', CAST({pk} AS TEXT), {values} FROM {quote(model._meta.db_table)}")
    return " UNION ALL ".join(selects) + " ORDER BY 1, 2"


def last_event_id() -> int:
    from runtime.models import LifecycleEvent

    return LifecycleEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0


def new_event_kinds(after_id: int) -> list[str]:
    from runtime.models import LifecycleEvent

    return list(LifecycleEvent.objects.filter(id__gt=after_id).order_by("id").values_list("kind", flat=True))


# --- documented codes -----------------------------------------------------------------------------


@cache
def documented_codes() -> dict[str, frozenset[str]]:
    """The codes docs/agent-protocol.md § Codes lists: ``{"tool.rejected": {...}, "error": {...}}``."""
    text = (ROOT / "docs" / "agent-protocol.md").read_text()
    section = text.split("## Codes", 1)[1].split("\n## ", 1)[0]
    found: dict[str, frozenset[str]] = {}
    for paragraph in section.strip().split("\n\n"):
        head, _, rest = paragraph.partition(":")
        name = head.strip("` ").removesuffix(".code")
        found[name] = frozenset(re.findall(r"`([a-z_]+)`", re.sub(r"\([^)]*\)", "", rest)))  # not the asides
    return found


# --- strategies -----------------------------------------------------------------------------------

# Text a server must store and echo: no U+0000, no lone surrogates (those are malformed_frame, tested apart).
storable_text = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=40)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),  # unbounded: 2**64 and beyond too
    st.floats(allow_nan=False, allow_infinity=False),
    storable_text,
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(storable_text, children, max_size=4)),
    max_leaves=8,
)

# Values that sit just beside what a schema allows: bools for ints, 1.0 for 1, ints for bools,
# numbers past every limit, empty and too-long strings, nulls, containers.
NEAR_MISSES: list[Any] = [
    True,
    False,
    0,
    1,
    -1,
    1.0,
    0.5,
    -0.0,
    1e308,
    2**31,
    2**63,
    2**64,
    10**30,
    -(10**30),
    "",
    "1",
    "true",
    "null",
    " ",
    "x" * 65,
    "x" * 129,
    "x" * 257,
    "x" * 1001,
    "x" * 4001,
    "é" * 129,
    "\U0001f345" * 129,
    None,
    [],
    {},
    [None],
    {"": None},
    [1, 2],
]


def accepts_anything(schema: dict[str, Any]) -> bool:
    return not (set(schema) - {"description", "title"})


def violating(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """JSON values that ``schema`` (as the server checks it: integers are real ints) refuses."""
    validator = StrictValidator(schema)
    return st.one_of(st.sampled_from(NEAR_MISSES), json_values).filter(lambda value: not validator.is_valid(value))


_SCHEMA_WORDS = frozenset(
    {"type", "const", "enum", "minLength", "maxLength", "minimum", "maximum", "properties", "required"}
    | {"additionalProperties", "items", "minItems", "maxItems", "description", "title"}
)
_SAMPLE_LIMIT = 40  # generated strings and containers stay this small, but for the exact limits


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values ``schema`` accepts, as the server checks them (every one is checked here too).

    Strings and integers also hit their exact limits (a 4000-character text, the minimum).
    """
    unknown = set(schema) - _SCHEMA_WORDS
    if unknown:
        raise NotImplementedError(f"from_schema does not know {sorted(unknown)}: extend it")
    validator = StrictValidator(schema)

    def checked(value: Any) -> Any:
        assert validator.is_valid(value), (value, schema)
        return value

    return _from_schema(schema).map(checked)


def _from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind is None:
        return json_values
    if isinstance(kind, list):
        return st.one_of([_from_schema({**schema, "type": k}) for k in kind])
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind in ("integer", "number"):
        low, high = schema.get("minimum"), schema.get("maximum")
        edges = [edge for edge in (low, high) if edge is not None]
        if kind == "integer":
            ints = st.integers(min_value=low, max_value=high)
            return st.one_of(ints, st.sampled_from(edges)) if edges else ints
        return st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False)
    if kind == "string":
        shortest, longest = schema.get("minLength", 0), schema.get("maxLength")
        text = st.text(
            st.characters(codec="utf-8", exclude_characters="\x00"),
            min_size=shortest,
            max_size=min(longest or _SAMPLE_LIMIT, shortest + _SAMPLE_LIMIT),
        )
        if longest is None:
            return text
        exact = st.tuples(st.sampled_from(["x", "é", "\U0001f345"]), st.sampled_from([shortest, longest]))
        return st.one_of(text, exact.map(lambda pair: pair[0] * pair[1]))
    if kind == "array":
        items = _from_schema(schema["items"]) if "items" in schema else json_values
        return st.lists(
            items, min_size=schema.get("minItems", 0), max_size=min(schema.get("maxItems", 4), _SAMPLE_LIMIT)
        )
    if kind == "object":
        properties = {key: from_schema(sub) for key, sub in schema.get("properties", {}).items()}
        required = set(schema.get("required", []))
        fixed = st.fixed_dictionaries(
            {k: v for k, v in properties.items() if k in required},
            optional={k: v for k, v in properties.items() if k not in required},
        )
        if schema.get("additionalProperties", True) is False:
            return fixed
        extra = schema.get("additionalProperties", {})
        others = st.dictionaries(
            storable_text.filter(lambda key: key not in properties),
            _from_schema(extra if isinstance(extra, dict) else {}),
            max_size=3,
        )
        return st.tuples(fixed, others).map(lambda pair: {**pair[1], **pair[0]})
    raise NotImplementedError(f"from_schema does not know type {kind!r}: extend it")


def with_const_type(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A frame schema whose ``type`` is exactly ``name`` (the frame schemas only say it is a string)."""
    typed = copy.deepcopy(schema)
    typed["properties"]["type"] = {"const": name}
    return typed


def valid_frames(schemas: dict[str, dict[str, Any]]) -> dict[str, st.SearchStrategy[dict[str, Any]]]:
    """Per frame type, frames its schema accepts (storable strings only)."""
    return {name: from_schema(with_const_type(name, schema)) for name, schema in schemas.items()}


@dataclass(frozen=True)
class Mutant:
    how: str  # e.g. "missing conversation_id"
    frame: Any
    code: str  # the error code the server must answer with


@st.composite
def mutants(
    draw: st.DrawFn, schemas: dict[str, dict[str, Any]], valid: dict[str, st.SearchStrategy[dict[str, Any]]]
) -> Mutant:
    """A valid frame broken in one way, with the stable code that refusal must have."""
    name = draw(st.sampled_from(sorted(schemas)))
    schema = schemas[name]
    frame = draw(valid[name])
    properties = schema["properties"]
    required = [key for key in schema["required"] if key != "type"]
    typed_fields = [key for key, sub in properties.items() if key != "type" and not accepts_anything(sub)]
    kinds = ["extra", "type", "untyped", "not_object"]
    if required:
        kinds.append("missing")
    if typed_fields:
        kinds.append("wrong")
    kind = draw(st.sampled_from(kinds))
    if kind == "missing":
        key = draw(st.sampled_from(required))
        del frame[key]
        return Mutant(f"{name} without {key}", frame, "invalid_frame")
    if kind == "extra":
        key = draw(storable_text.filter(lambda k: k not in properties))
        frame[key] = draw(json_values)
        return Mutant(f"{name} with extra {key!r}", frame, "invalid_frame")
    if kind == "wrong":
        key = draw(st.sampled_from(typed_fields))
        frame[key] = draw(violating(properties[key]))
        return Mutant(f"{name} with {key}={frame[key]!r:.60}", frame, "invalid_frame")
    if kind == "type":
        frame["type"] = draw(
            st.one_of(
                storable_text.filter(lambda t: t not in schemas), json_values.filter(lambda t: not isinstance(t, str))
            )
        )
        return Mutant(f"{name} as type {frame['type']!r:.60}", frame, "unknown_frame_type")
    if kind == "untyped":
        del frame["type"]
        return Mutant(f"{name} without type", frame, "unknown_frame_type")
    other = draw(json_values.filter(lambda v: not isinstance(v, dict)))
    return Mutant(f"not an object: {other!r:.60}", other, "malformed_frame")
