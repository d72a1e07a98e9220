"""``python -m bench.soak``: the production topology under a seeded storm of faults, then the history checker.

The soak owns everything it runs, on loopback: its own PostgreSQL cluster (``initdb`` and ``pg_ctl``
in a temporary directory), its own Redis, two Daphne processes, a Celery worker and the beat
(``tests.reliability.conftest.CrashRig``), and the clients:

* **Agents** of four users: one WebSocket Agent and one MCP Agent sharing a conversation (user 0),
  two WebSocket Agents sharing one (user 1), one WebSocket Agent each for users 2 and 3; every
  WebSocket Agent also has a conversation of its own. WebSocket Agents are
  ``tests.reliability.agent.CrashAgent`` (reconnecting, acking, recording every frame); the MCP
  Agent uses the official SDK (``tests.lineup.gateways.mcp.client.McpClient``) and MCP tasks.
* **People**: each user's workspace connection (``/ws/workspace/`` with a session cookie) sends
  messages and closes, switches away from or leaves a running focus.

``--ops`` operations are drawn from ``--seed``: focuses of 1-5 s that end by their deadline, by an
Agent's ``pomodoro.interrupt``, by the person closing the app, switching to Scratch notes or
returning to Interact; some start calls are sent twice on purpose (the same ``source_tool_call_id``);
some operations are the person's messages. Meanwhile ``--cycles`` faults, drawn from the same seed
and spread over the run: SIGKILL of a Daphne, the worker or the beat (started again after a seeded
pause), a Redis restart (which loses every queued task and channel-layer message), a PostgreSQL
fast shutdown and restart, an Agent's connection dropped. Lanes retry what a fault cut off the way a
real client does (the same call id). A process that exits by itself is started again (as a
supervisor would) and reported.

``--engine sqlite`` runs the embedded product instead: one ``manage.py run_embedded`` on a new
SQLite file (``tests.reliability.conftest.EmbeddedRig``), the same clients all on its one port, and
the faults of that topology: SIGKILL of the server (started again after a seeded pause), an Agent's
connection dropped, and another process holding ``BEGIN IMMEDIATE`` on the file for 1-5 s in place
of the PostgreSQL restart (docs/reliability.md, *On SQLite*).

When the operations are done and the faults are over, the soak waits for every result to be
delivered and acked, then runs ``bench.history`` (the checker) over the database, what every Agent
recorded and the process logs; it prints a one-line verdict and the JSON report. Exit status 1 on any
violation, with the seed that replays the run's plan. Progress lines go to stderr as it runs.
The run is bounded (``--max-seconds``); the temporary directory is removed unless the run failed or
``--keep`` is given.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

SWEEP_SECONDS = 1.0
REDELIVERY_SECONDS = 1.0
QUEUE = "lineup-soak"
ROUND_TIMEOUT = 120.0  # a focus of at most 5 s whose result is not in after this is given up (and reported)
DRAIN_TIMEOUT = 90.0
FAULT_KINDS = ("daphne", "worker", "beat", "redis", "postgres", "agent_drop")
FAULT_WEIGHTS = (3, 2, 1, 2, 2, 2)
# The embedded product (``--engine sqlite``) is one process: no worker, beat or Redis to kill. Its
# "database restart" is another process holding SQLite's write lock (``BEGIN IMMEDIATE``) a while.
SQLITE_FAULT_KINDS = ("server", "sqlite_lock", "agent_drop")
SQLITE_FAULT_WEIGHTS = (3, 2, 2)
SQLITE_LOCK_SECONDS = (1.0, 5.0)  # how long the outside process holds the lock (seeded in this range)
ENDS = ("deadline", "interrupt", "close", "switch", "return")
END_WEIGHTS = (45, 25, 10, 10, 10)
MESSAGE_SHARE = 0.15
DUPLICATE_START_SHARE = 0.2


def log(text: str) -> None:
    print(f"[soak] {text}", file=sys.stderr, flush=True)


# --- the plan ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Op:
    """One planned operation: a focus (with how it ends) or a person's message."""

    number: int
    kind: str  # focus | message
    duration: int = 0
    end: str = "deadline"
    end_after: float = 0.0  # seconds after the start is accepted
    duplicate_start: bool = False


def plan_op(seed: int, number: int) -> Op:
    """Operation ``number`` of the run ``seed``: the same whichever lane happens to take it."""
    rng = random.Random(f"{seed}:op:{number}")
    if rng.random() < MESSAGE_SHARE:
        return Op(number=number, kind="message")
    duration = rng.randint(1, 5)
    end = rng.choices(ENDS, weights=END_WEIGHTS)[0]
    return Op(
        number=number,
        kind="focus",
        duration=duration,
        end=end,
        end_after=rng.uniform(0.2, duration - 0.1),
        duplicate_start=rng.random() < DUPLICATE_START_SHARE,
    )


@dataclass(frozen=True)
class Fault:
    kind: str
    pause: float  # seconds the process stays down
    pick: float  # which Daphne or which Agent, as a fraction


def plan_faults(seed: int, cycles: int, engine: str = "postgresql") -> list[Fault]:
    rng = random.Random(f"{seed}:faults")
    if engine != "sqlite":
        return [
            Fault(
                kind=rng.choices(FAULT_KINDS, weights=FAULT_WEIGHTS)[0], pause=rng.uniform(0.2, 2.0), pick=rng.random()
            )
            for _ in range(cycles)
        ]
    kinds = [rng.choices(SQLITE_FAULT_KINDS, weights=SQLITE_FAULT_WEIGHTS)[0] for _ in range(cycles)]
    if cycles >= len(SQLITE_FAULT_KINDS):
        # Few kinds, few faults in CI (5): every kind at least once, in a seeded order.
        kinds = [*SQLITE_FAULT_KINDS, *kinds[len(SQLITE_FAULT_KINDS) :]]
        rng.shuffle(kinds)
    faults = []
    for kind in kinds:
        pause, pick = rng.uniform(0.2, 2.0), rng.random()
        if kind == "sqlite_lock":
            low, high = SQLITE_LOCK_SECONDS
            pause = low + (pause - 0.2) / 1.8 * (high - low)  # "a few seconds", from the same draw
        faults.append(Fault(kind=kind, pause=pause, pick=pick))
    return faults


class OpSource:
    """Hands out the run's operations to the lanes, in order, and counts them."""

    def __init__(self, seed: int, total: int) -> None:
        self.seed, self.total = seed, total
        self.taken = 0
        self.finished = 0
        self.closed = False  # the run's time is up: no more operations
        self._lock = threading.Lock()

    def take(self) -> Op | None:
        with self._lock:
            if self.closed or self.taken >= self.total:
                return None
            self.taken += 1
            return plan_op(self.seed, self.taken)

    def finish(self) -> None:
        with self._lock:
            self.finished += 1


# --- what the clients record ---------------------------------------------------------------------


@dataclass
class Record:
    """What one Agent saw: the operations it was told it started, its receipts, anything unexpected."""

    agent_id: str
    name: str
    user_id: int
    channel: str  # agent_socket | mcp
    starts: dict[str, str] = field(default_factory=dict)  # "<conversation> <call id>" -> operation_id
    receipts: list[dict[str, Any]] = field(default_factory=list)
    mcp_results: dict[str, dict[str, Any]] = field(default_factory=dict)  # operation_id -> result
    anomalies: list[str] = field(default_factory=list)
    transient_errors: dict[str, int] = field(default_factory=dict)  # internal_error answers, timeouts
    duplicate_starts: int = 0
    replayed_answers: int = 0

    def transient(self, kind: str) -> None:
        self.transient_errors[kind] = self.transient_errors.get(kind, 0) + 1


class Person:
    """A user at the workspace page: one ``/ws/workspace/`` connection, reconnecting, doing what it is asked."""

    def __init__(self, user_id: int, cookie: str, ports: list[int]) -> None:
        self.user_id, self.cookie, self.ports = user_id, cookie, ports
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.lock = threading.Lock()
        self.ws = None
        self.attempts = 0
        self.messages: list[dict[str, Any]] = []  # text, conversation_id, message_id (None: answer lost)
        self.actions: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()  # lifecycle frames answered with an error (the app had closed)
        self.anomalies: list[str] = []

    def ask(self, frame_type: str, body: dict[str, Any]) -> None:
        with self.lock:
            self.requests.append((frame_type, body))

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            with self.lock:
                request = self.requests.pop(0) if self.requests else None
            if request is None:
                stop.wait(0.05)
                continue
            self._handle(*request)

    def _connect(self) -> bool:
        from websockets.sync.client import connect

        port = self.ports[self.attempts % len(self.ports)]
        self.attempts += 1
        try:
            self.ws = connect(
                f"ws://127.0.0.1:{port}/ws/workspace/",
                additional_headers={"Cookie": self.cookie, "Origin": f"http://127.0.0.1:{port}"},
                open_timeout=3,
                close_timeout=1,
                ping_interval=None,
                max_size=2**22,
                legacy=True,  # a plain connection object, closed by _close (websockets 17)
            )
            hello = json.loads(self.ws.recv(timeout=5))
            if hello.get("type") != "hello":
                raise ConnectionError(f"workspace answered {hello}")
            return True
        except Exception:
            self._close()
            return False

    def _close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()
        self.ws = None

    def _handle(self, frame_type: str, body: dict[str, Any]) -> None:
        if frame_type == "message.send" and not body.get("client_message_id"):
            # Sent again after a lost answer, a message without its id would be stored twice: the
            # page never sends one without it, and neither may its stand-in.
            raise ValueError("message.send needs a client_message_id (the page's id for the message)")
        request_id = f"r{self.attempts}-{time.monotonic_ns()}"
        deadline = time.monotonic() + 15
        answer = None
        outcome = "unanswered"
        while answer is None and time.monotonic() < deadline:
            if self.ws is None and not self._connect():
                time.sleep(0.2)
                continue
            try:
                self.ws.send(json.dumps({"type": frame_type, "request_id": request_id, **body}))
            except Exception:  # never left this machine: safe to send again on a new connection
                self._close()
                continue
            try:
                answer = self._answer(request_id, deadline)
            except Exception:
                # Sent again on a new connection, message.send too: it carries its client_message_id,
                # so the server stores it once however often it arrives (as the page does).
                self._close()
                time.sleep(0.2)
                continue
            if answer is not None and answer.get("code") == "internal_error":
                outcome = "internal_error"  # e.g. the database went away: maybe at its commit; sent again
                answer = None
                time.sleep(0.3)
        self.actions[frame_type] += 1
        if frame_type == "message.send":
            ok = answer is not None and answer.get("type") == "ok"
            outcome = "stored" if ok else outcome
            self.messages.append({**body, "message_id": answer.get("message_id") if ok else None, "outcome": outcome})
            if answer is not None and not ok and answer.get("code") != "internal_error":
                self.anomalies.append(f"message.send answered {answer}")
        elif answer is not None and answer.get("type") == "error":
            self.refused[f"{frame_type}:{answer.get('code')}"] += 1

    def _answer(self, request_id: str, deadline: float) -> dict[str, Any] | None:
        while time.monotonic() < deadline:
            frame = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if frame.get("request_id") == request_id:
                return frame
        return None


# --- lanes: one conversation of one Agent --------------------------------------------------------


@dataclass
class Round:
    op: Op
    conversation_id: str
    call_id: str
    created: float
    operation_id: str | None = None
    instance_id: str | None = None
    accepted_at: float | None = None
    not_before: float = 0.0
    in_flight: bool = False
    duplicate_done: bool = False
    interrupt_sends: int = 0
    receipt: dict[str, Any] | None = None
    end_asked: bool = False
    rejections: int = 0
    abandoned: bool = False  # refused for good (an anomaly is recorded): the lane moves on


class SocketLane:
    """One conversation of a WebSocket Agent: one round at a time, until the source runs dry."""

    def __init__(self, world: World, agent: Any, record: Record, conversation_id: str, person: Person) -> None:
        self.world, self.agent, self.record = world, agent, record
        self.conversation_id, self.person = conversation_id, person
        self.round: Round | None = None
        self.ready_at = 0.0
        self.dry = False

    @property
    def idle(self) -> bool:
        return self.dry and self.round is None

    def step(self, results: set[tuple[str, str]], now: float) -> None:
        if self.round is None:
            if self.dry or now < self.ready_at:
                return
            op = self.world.source.take()
            if op is None:
                self.dry = True
                return
            if op.kind == "message":
                text = f"soak {self.world.seed} op {op.number}: a message from the person"
                client_id = f"soak-{self.world.seed}-op{op.number}"
                self.person.ask(
                    "message.send",
                    {"conversation_id": self.conversation_id, "text": text, "client_message_id": client_id},
                )
                self.world.source.finish()
                return
            call_id = f"{self.record.name}-op{op.number}"
            self.round = Round(op=op, conversation_id=self.conversation_id, call_id=call_id, created=now)
        r = self.round
        if r.in_flight or now < r.not_before:
            return
        if r.abandoned:
            self._finish(now)
            return
        has_result = (r.conversation_id, r.call_id) in results
        if r.operation_id is None:
            self._send(r, "pomodoro.start", r.call_id, {"duration_seconds": r.op.duration}, self._on_start)
        elif r.op.duplicate_start and not r.duplicate_done:
            self._send(r, "pomodoro.start", r.call_id, {"duration_seconds": r.op.duration}, self._on_duplicate)
        elif r.op.end == "interrupt" and r.receipt is None and (r.interrupt_sends or not has_result):
            # Once sent, an interrupt is sent again until its receipt arrives: it may have committed.
            if now >= r.accepted_at + r.op.end_after:
                self._send(r, "pomodoro.interrupt", r.call_id + "-stop", {}, self._on_interrupt)
        elif r.op.end in ("close", "switch", "return") and not r.end_asked and not has_result:
            if now >= r.accepted_at + r.op.end_after:
                r.end_asked = True
                self.person.ask(*lifecycle_frame(r.op.end, r.conversation_id, r.instance_id))
        elif has_result:
            self._finish(now)
        elif now - r.created > ROUND_TIMEOUT:
            self.record.anomalies.append(f"no result for {r.call_id} ({r.operation_id}) after {ROUND_TIMEOUT:.0f}s")
            self._finish(now)

    def _finish(self, now: float) -> None:
        self.round = None
        self.world.source.finish()
        self.ready_at = now + self.world.rng_for(self.record.name).uniform(0.0, 0.3)

    def _send(self, r: Round, tool: str, call_id: str, arguments: dict[str, Any], on_answer: Any) -> None:
        if self.agent.tool_call(r.conversation_id, call_id, tool, arguments, lambda answer: on_answer(r, answer)):
            r.in_flight = True
            if tool == "pomodoro.interrupt":
                r.interrupt_sends += 1

    def _transient(self, r: Round, answer: dict[str, Any] | None) -> bool:
        """No answer (the connection ended) or ``internal_error`` (e.g. the database was down): send again."""
        r.in_flight = False
        if answer is None:
            return True
        if answer.get("type") == "error" and answer.get("code") == "internal_error":
            self.record.transient("internal_error")
            r.not_before = time.monotonic() + 0.3
            return True
        return False

    def _on_start(self, r: Round, answer: dict[str, Any] | None) -> None:
        if self._transient(r, answer):
            return
        if answer["type"] == "tool.rejected" and answer["code"] == "active_focusing_operation":
            # The other Agent of the conversation is focusing: a new call a moment later.
            r.rejections += 1
            r.call_id = f"{self.record.name}-op{r.op.number}-{r.rejections}"
            r.not_before = time.monotonic() + self.world.rng_for(self.record.name).uniform(0.3, 1.0)
            return
        if answer["type"] != "tool.accepted":
            self.record.anomalies.append(f"start {r.call_id}: {answer}")
            r.abandoned = True
            return
        self._accepted(r, answer)

    def _accepted(self, r: Round, answer: dict[str, Any]) -> None:
        if r.operation_id is not None and r.operation_id != answer["operation_id"]:
            self.record.anomalies.append(f"start {r.call_id} answered another operation: {answer}")
        r.operation_id, r.instance_id = answer["operation_id"], answer["instance_id"]
        self.record.starts[f"{r.conversation_id} {r.call_id}"] = r.operation_id
        self.record.replayed_answers += bool(answer["replayed"])
        if r.accepted_at is None:
            r.accepted_at = time.monotonic()

    def _on_duplicate(self, r: Round, answer: dict[str, Any] | None) -> None:
        if self._transient(r, answer):
            return
        r.duplicate_done = True
        self.record.duplicate_starts += 1
        if answer["type"] != "tool.accepted" or not answer["replayed"] or answer["operation_id"] != r.operation_id:
            self.record.anomalies.append(f"the same start {r.call_id} again answered {answer}")
            return
        self._accepted(r, answer)

    def _on_interrupt(self, r: Round, answer: dict[str, Any] | None) -> None:
        if self._transient(r, answer):
            return
        if answer["type"] != "tool.receipt":
            self.record.anomalies.append(f"interrupt {r.call_id}: {answer}")
            r.receipt = {"status": "failed"}
            return
        r.receipt = answer["receipt"]
        self.record.receipts.append(
            {"conversation_id": r.conversation_id, "call_id": r.call_id + "-stop", "receipt": answer["receipt"]}
        )


def lifecycle_frame(end: str, conversation_id: str, instance_id: str | None) -> tuple[str, dict[str, Any]]:
    """The person's frame that ends a focus: close the app, switch to Scratch notes, back to Interact."""
    if end == "close":
        return "app.close", {"conversation_id": conversation_id, "instance_id": instance_id}
    if end == "switch":
        return "app.open", {"conversation_id": conversation_id, "app_id": "notes"}
    return "return_to_interact", {"conversation_id": conversation_id}


class SocketAgentThread:
    """One WebSocket Agent and its lanes, driven by one thread."""

    def __init__(self, world: World, agent: Any, record: Record) -> None:
        self.world, self.agent, self.record = world, agent, record
        self.lanes: list[SocketLane] = []
        self.sever_requested = threading.Event()

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            if self.sever_requested.is_set():
                self.sever_requested.clear()
                self.agent.sever()
            now = time.monotonic()
            results = {(d.conversation_id, d.source_tool_call_id) for d in self.agent.deliveries}
            for lane in self.lanes:
                lane.step(results, now)
            self.agent.pump(0.02)
        self.agent.close()

    @property
    def idle(self) -> bool:
        return all(lane.idle for lane in self.lanes)


class McpAgentThread:
    """The MCP Agent: one conversation, rounds as MCP tasks, results read with ``tasks/result``."""

    def __init__(self, world: World, record: Record, token: str, conversation_id: str, person: Person) -> None:
        self.world, self.record, self.token = world, record, token
        self.conversation_id, self.person = conversation_id, person
        self.client: Any = None
        self.attempts = 0
        self.drops = 0
        self.busy = False
        self.dry = False
        self.sever_requested = threading.Event()

    @property
    def idle(self) -> bool:
        return self.dry and not self.busy

    def run(self, stop: threading.Event) -> None:
        try:
            while not stop.is_set():
                self.busy = False
                op = self.world.source.take()
                if op is None:
                    self.dry = True
                    stop.wait(0.2)
                    continue
                self.busy = True
                if op.kind == "message":
                    text = f"soak {self.world.seed} op {op.number}: a message from the person"
                    client_id = f"soak-{self.world.seed}-op{op.number}"
                    self.person.ask(
                        "message.send",
                        {"conversation_id": self.conversation_id, "text": text, "client_message_id": client_id},
                    )
                else:
                    self._round(op, stop)
                self.world.source.finish()
                self.busy = False
                stop.wait(self.world.rng_for(self.record.name).uniform(0.0, 0.3))
        finally:
            self.busy, self.dry = False, True
            self._drop()

    # --- one round -------------------------------------------------------------------------------

    def _round(self, op: Op, stop: threading.Event) -> None:
        import mcp.types as types

        started = time.monotonic()
        key = f"{self.record.name}-op{op.number}"
        task_id = None
        instance_id = None  # the receipt rides along with the task (docs/agents.md)
        rejections = 0
        while task_id is None:
            if time.monotonic() - started > ROUND_TIMEOUT or stop.is_set():
                self.record.anomalies.append(f"start {key} never answered")
                return
            answer = self._call(
                lambda c, key=key: c.run(lambda s: s.send_request(_start_request(op, key), start_answer_model()))
            )
            if answer is None:
                continue
            if isinstance(answer.root, types.CreateTaskResult):
                task_id = answer.root.task.task_id
                instance_id = ((answer.root.model_extra or {}).get("structuredContent") or {}).get("instance_id")
            elif (answer.root.structured_content or {}).get("code") == "active_focusing_operation":
                rejections += 1
                key = f"{self.record.name}-op{op.number}-{rejections}"
                time.sleep(self.world.rng_for(self.record.name).uniform(0.3, 1.0))
            else:
                self.record.anomalies.append(f"start {key} answered {answer.root}")
                return
        accepted_at = time.monotonic()
        self.record.starts[f"{self.conversation_id} mcp:{key}"] = task_id
        if op.duplicate_start:
            again = None
            while again is None and time.monotonic() - started < ROUND_TIMEOUT:
                again = self._call(
                    lambda c, key=key: c.run(lambda s: s.send_request(_start_request(op, key), start_answer_model()))
                )
            self.record.duplicate_starts += 1
            if (
                again is None
                or not isinstance(again.root, types.CreateTaskResult)
                or again.root.task.task_id != task_id
            ):
                self.record.anomalies.append(f"the same start {key} again answered {again}")
        time.sleep(max(0.0, accepted_at + op.end_after - time.monotonic()))
        if op.end == "interrupt":
            receipt = None
            while receipt is None and time.monotonic() - started < ROUND_TIMEOUT:
                answer = self._call(lambda c, key=key: c.call("pomodoro.interrupt", {}, key=key + "-stop"))
                if answer is not None:
                    receipt = answer.structured_content
            self.record.receipts.append(
                {"conversation_id": self.conversation_id, "call_id": f"mcp:{key}-stop", "receipt": receipt}
            )
        elif op.end in ("close", "switch", "return"):
            self.person.ask(*lifecycle_frame(op.end, self.conversation_id, instance_id))
        while time.monotonic() - started < ROUND_TIMEOUT and not stop.is_set():
            status = self._call(lambda c: c.get_task(task_id))
            if status is not None and status.status == "completed":
                result = self._call(lambda c: c.task_result(task_id))
                if result is not None:
                    self.record.mcp_results[task_id] = result.structured_content
                    return
            time.sleep(0.3)
        self.record.anomalies.append(f"no result for {key} ({task_id}) after {ROUND_TIMEOUT:.0f}s")

    # --- the connection ----------------------------------------------------------------------------

    def _call(self, request: Any) -> Any:
        """Run one request on a live client (connecting to the next server if needed); None on failure."""
        if self.sever_requested.is_set():
            self.sever_requested.clear()
            self._drop()
        if self.client is None:
            from tests.lineup.gateways.mcp.client import McpClient

            port = self.world.daphne_ports[self.attempts % len(self.world.daphne_ports)]
            self.attempts += 1
            try:
                self.client = McpClient(f"http://127.0.0.1:{port}/mcp/{self.conversation_id}/", self.token, timeout=8)
            except Exception:
                self.client = None
                self.record.transient("connect")
                time.sleep(0.2)
                return None
        try:
            return request(self.client)
        except Exception as error:
            self.record.transient(type(error).__name__)
            self._drop()
            time.sleep(0.2)
            return None

    def _drop(self) -> None:
        if self.client is not None:
            self.drops += 1
            with contextlib.suppress(Exception):
                self.client.close()
            self.client = None


def _start_request(op: Op, key: str) -> Any:
    import mcp.types as types

    params = types.CallToolRequestParams(
        name="pomodoro.start",
        arguments={"duration_seconds": op.duration},
        task=types.TaskMetadata(),
        _meta={"lineup/idempotency_key": key},
    )
    return types.CallToolRequest(params=params)


@functools.cache
def start_answer_model() -> Any:
    """A task-augmented start answers a task, or (rejected) a plain ``CallToolResult``: try the task first."""
    from typing import Annotated

    import mcp.types as types
    from pydantic import ConfigDict, Field, RootModel

    class _Task(types.CreateTaskResult):
        model_config = ConfigDict(extra="allow")  # keeps the receipt that rides along (instance_id)

    class _StartAnswer(RootModel[Annotated[_Task | types.CallToolResult, Field(union_mode="left_to_right")]]):
        pass

    return _StartAnswer


# --- the world -------------------------------------------------------------------------------------


@dataclass
class World:
    """Everything the threads share."""

    seed: int
    source: OpSource
    daphne_ports: list[int]
    _rngs: dict[str, random.Random] = field(default_factory=dict)

    def rng_for(self, name: str) -> random.Random:
        """A thread's own random stream (random.Random is not shared across threads)."""
        if name not in self._rngs:
            self._rngs[name] = random.Random(f"{self.seed}:{name}")
        return self._rngs[name]


def create_world(seed: int, source: OpSource, daphne_ports: list[int]) -> tuple[list, list, dict]:
    """Users, conversations, Agent tokens and sessions in the database; the client objects for them."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.db import transaction
    from django.utils import timezone

    from runtime.models import Conversation
    from runtime.services.agents import create_agent_token
    from runtime.services.conversations import conversation_get_or_create_default
    from runtime.services.workspace_locks import lock_workspace
    from tests.reliability.agent import CrashAgent

    world = World(seed=seed, source=source, daphne_ports=daphne_ports)
    urls = [f"ws://127.0.0.1:{port}/ws/agent/" for port in daphne_ports]
    # (user, [(agent name, channel, [conversation keys])]); conversation "shared" is the user's default one.
    layout = [
        (0, [("u0-ws", "agent_socket", ["shared", "own-0"]), ("u0-mcp", "mcp", ["shared"])]),
        (1, [("u1-ws-a", "agent_socket", ["shared", "own-a"]), ("u1-ws-b", "agent_socket", ["shared", "own-b"])]),
        (2, [("u2-ws", "agent_socket", ["shared", "own"])]),
        (3, [("u3-ws", "agent_socket", ["shared", "own"])]),
    ]
    socket_threads: list[SocketAgentThread] = []
    mcp_threads: list[McpAgentThread] = []
    people: dict[int, Person] = {}
    now = timezone.now()
    for index, agents in layout:
        user = get_user_model()(username=f"soak-{index}")
        user.set_unusable_password()
        user.save()
        store = import_module(settings.SESSION_ENGINE).SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"  # the one that knows users
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.save(must_create=True)
        person = people[user.pk] = Person(user.pk, f"{settings.SESSION_COOKIE_NAME}={store.session_key}", daphne_ports)
        conversations = {"shared": str(conversation_get_or_create_default(user=user).id)}
        for _, _, keys in agents:
            for key in keys:
                if key not in conversations:
                    with transaction.atomic():
                        conversation = Conversation.objects.create(owner=user, title=f"soak {key}")
                        lock_workspace(conversation.id, now=now)
                    conversations[key] = str(conversation.id)
        for name, channel, keys in agents:
            agent, token = create_agent_token(user=user, name=name, now=now)
            record = Record(agent_id=str(agent.id), name=name, user_id=user.pk, channel=channel)
            if channel == "mcp":
                mcp_threads.append(McpAgentThread(world, record, token, conversations[keys[0]], person))
                continue
            client = CrashAgent(urls[0], token, urls=urls)
            thread = SocketAgentThread(world, client, record)
            thread.lanes = [SocketLane(world, client, record, conversations[key], person) for key in keys]
            socket_threads.append(thread)
    return socket_threads, mcp_threads, people


# --- faults ----------------------------------------------------------------------------------------


class FaultInjector:
    """Applies the planned faults one after another, spread over the operations."""

    def __init__(self, faults: list[Fault], ops: int, rig: Any, cluster: Any, agents: list) -> None:
        self.faults, self.ops, self.rig, self.cluster, self.agents = faults, ops, rig, cluster, agents
        self.applied: list[dict[str, Any]] = []
        self.by_kind: Counter[str] = Counter()
        self.ended_at: float | None = None  # time.time() when the last fault was over and every process ready
        self.error: str | None = None
        self.source: OpSource | None = None

    def run(self, stop: threading.Event) -> None:
        try:
            for index, fault in enumerate(self.faults):
                threshold = (index + 1) * self.ops // (len(self.faults) + 1)
                while not stop.is_set() and self.source.taken < threshold and not self.source.closed:
                    self._supervise()
                    stop.wait(0.1)
                if stop.is_set():
                    return
                self._apply(fault)
            self._settle_down()
            self.ended_at = time.time()
        except Exception as error:  # a harness failure: reported as a violation, never silent
            self.error = repr(error)
            log(f"fault injector failed: {error!r}")

    def _supervise(self) -> None:
        for role in self.rig.supervise():
            log(f"{role} exited by itself: started again (supervisor)")

    def _apply(self, fault: Fault) -> None:
        began = time.time()
        target = fault.kind
        if fault.kind in ("daphne", "worker", "beat", "redis", "server"):
            role = fault.kind
            if fault.kind == "daphne":
                role = ("daphne", "daphne-b")[int(fault.pick * 2)]
            target = role
            self.rig.kill(role)
            time.sleep(fault.pause)
            self.rig.start(role)
            self._wait_ready(role)
        elif fault.kind == "postgres":
            self.cluster.stop("fast")
            time.sleep(fault.pause)
            self.cluster.start()
        elif fault.kind == "sqlite_lock":
            target = self.cluster.path.name
            self.cluster.hold_lock(fault.pause)
        else:
            agent = self.agents[int(fault.pick * len(self.agents))]
            target = agent.record.name
            agent.sever_requested.set()
        self.by_kind[fault.kind] += 1
        self.applied.append({"kind": fault.kind, "target": target, "pause": round(fault.pause, 3), "at": began})
        log(
            f"fault {len(self.applied)}/{len(self.faults)}: {fault.kind} ({target}, down {fault.pause:.1f}s) | "
            f"ops taken {self.source.taken}/{self.ops}, done {self.source.finished}"
        )

    def _wait_ready(self, role: str) -> None:
        deadline = time.monotonic() + 90
        while not self.rig.ready(role):
            self._supervise()
            if time.monotonic() > deadline:
                raise RuntimeError(f"{role} not ready 90 s after its restart\n{self.rig.describe()}")
            time.sleep(0.1)

    def _settle_down(self) -> None:
        """After the last fault: every process up and ready (the clock for 'no focus left behind' starts)."""
        deadline = time.monotonic() + 90
        while not (self.cluster.running() and all(self.rig.ready(role) for role in self.rig.current)):
            self._supervise()
            if time.monotonic() > deadline:
                raise RuntimeError(f"processes not ready after the last fault\n{self.rig.describe()}")
            time.sleep(0.1)


class SqliteFile:
    """The SQLite soak's database: a file (what ``PostgresCluster`` is to the PostgreSQL soak, for
    the fault injector), and its one fault, another process holding the write lock."""

    def __init__(self, path: Path, log_dir: Path) -> None:
        self.path, self.log_dir = path, log_dir
        self.holds = 0

    @property
    def url(self) -> str:
        return f"sqlite:///{self.path}"

    def running(self) -> bool:
        return True  # a file: nothing to start

    def hold_lock(self, seconds: float) -> None:
        """An outside process (another program, a backup, a second server started by mistake) takes
        ``BEGIN IMMEDIATE`` on the file and holds it ``seconds``; the server's writes wait on its busy
        timeout meanwhile. Blocks until that process committed and exited."""
        self.holds += 1
        script = (
            "import sqlite3, sys, time\n"
            "db = sqlite3.connect(sys.argv[1], timeout=60, isolation_level=None)\n"
            "db.execute('BEGIN IMMEDIATE')\n"
            "print('locked', flush=True)\n"
            "time.sleep(float(sys.argv[2]))\n"
            "db.execute('COMMIT')\n"
            "print('released', flush=True)\n"
        )
        log_file = self.log_dir / f"sqlite-lock-{self.holds}.log"
        with log_file.open("w") as out:
            completed = subprocess.run(
                [sys.executable, "-c", script, str(self.path), f"{seconds:.3f}"],
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=seconds + 90,
                check=False,
            )
        if completed.returncode != 0 or "released" not in log_file.read_text():
            raise RuntimeError(f"the lock holder failed ({completed.returncode}): {log_file.read_text()[-2000:]}")


# --- the run ---------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--engine",
        choices=("postgresql", "sqlite"),
        default="postgresql",
        help="postgresql: the production topology (default); sqlite: the embedded product (manage.py run_embedded)",
    )
    parser.add_argument("--ops", type=int, default=1000, help="operations to run (default 1000)")
    parser.add_argument("--cycles", type=int, default=100, help="faults to apply (default 100)")
    parser.add_argument("--seed", type=int, default=None, help="the plan's seed (default: a new one, printed)")
    parser.add_argument("--max-seconds", type=float, default=None, help="stop issuing operations after this long")
    parser.add_argument(
        "--dir",
        type=Path,
        default=None,
        help="where the cluster, logs and history go (default: a new temporary directory)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the directory (it is kept anyway when the run fails)")
    parser.add_argument(
        "--lateness",
        type=float,
        default=3.0,
        help="seconds a settlement may lag behind ends_at + the sweep interval once faults are over (default 3)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # SIGTERM (a CI timeout, an operator) unwinds like Ctrl+C: every process and the cluster are stopped.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    max_seconds = args.max_seconds or 120 + args.ops * 2.0 + args.cycles * 6.0
    run_dir = args.dir or Path(tempfile.mkdtemp(prefix="lineup-soak-"))
    run_dir.mkdir(parents=True, exist_ok=True)
    engine_arg = " --engine sqlite" if args.engine == "sqlite" else ""
    log(
        f"seed={seed} ops={args.ops} cycles={args.cycles} engine={args.engine} dir={run_dir} "
        f"(replay: python -m bench.soak{engine_arg} --seed {seed} --ops {args.ops} --cycles {args.cycles})"
    )
    if args.engine == "sqlite":
        return _main_sqlite(args, seed, max_seconds, run_dir)

    # The soak's own services, before Django is set up (bench.common reads these at import).
    from tests.support.processes import PostgresCluster, free_port

    cluster = PostgresCluster.create(run_dir)
    cluster.start()
    redis_port = free_port()
    os.environ["LINEUP_BENCH_DATABASE_URL"] = cluster.url("lineup_soak")
    os.environ["LINEUP_BENCH_REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
    os.environ["LINEUP_BENCH_QUEUE"] = QUEUE
    verdict = 1
    try:
        verdict = _run(args, seed, max_seconds, run_dir, cluster, redis_port)
    finally:
        with contextlib.suppress(Exception):
            cluster.stop("fast")
        if verdict == 0 and not args.keep:
            cluster.destroy()
            if args.dir is None:
                shutil.rmtree(run_dir, ignore_errors=True)
        else:
            log(f"kept {run_dir} (logs/, history.json, report.json) and the stopped cluster {cluster.data_dir}")
    return verdict


def _main_sqlite(args: argparse.Namespace, seed: int, max_seconds: float, run_dir: Path) -> int:
    """The embedded product: one ``manage.py run_embedded`` on a new SQLite file in ``run_dir``."""
    (run_dir / "logs").mkdir(parents=True, exist_ok=True)
    database = SqliteFile(run_dir / "lineup.sqlite3", run_dir / "logs")
    os.environ["LINEUP_BENCH_DATABASE_URL"] = database.url  # bench.common: no Redis, no Celery
    verdict = 1
    try:
        verdict = _run(args, seed, max_seconds, run_dir, database, None)
    finally:
        if verdict == 0 and not args.keep and args.dir is None:
            shutil.rmtree(run_dir, ignore_errors=True)
        elif verdict != 0 or args.keep:
            log(f"kept {run_dir} (logs/, history.json, report.json, lineup.sqlite3)")
    return verdict


def _embedded_rig(run_dir: Path, database: SqliteFile) -> Any:
    from bench import common
    from tests.reliability.conftest import EmbeddedRig, embedded_env
    from tests.support.processes import ProcessSupervisor, free_port

    env = embedded_env(
        run_dir / "data",
        database_url=common.DATABASE_URL,
        LINEUP_OUTBOX_REDELIVERY_SECONDS=str(REDELIVERY_SECONDS),
        LINEUP_OUTBOX_REDELIVERY_MAX_SECONDS="4",
        LINEUP_LOG_FORMAT="json",
        LINEUP_REFERENCE_AGENT_URL="",
        LINEUP_SERVE_STATIC="0",
    )
    return EmbeddedRig(
        processes=ProcessSupervisor(run_dir / "logs"), log_dir=run_dir / "logs", daphne_port=free_port(), env=env
    )


def _run(args: argparse.Namespace, seed: int, max_seconds: float, run_dir: Path, cluster: Any, redis_port: Any) -> int:
    from bench import common, history  # sets Django up on the soak's own services

    if args.engine == "sqlite":
        rig = _embedded_rig(run_dir, cluster)
        return _soak(args, seed, max_seconds, run_dir, cluster, rig, history, common)
    from tests.reliability.conftest import CrashRig
    from tests.support.processes import ProcessSupervisor, free_port, lineup_env

    supervisor = ProcessSupervisor(run_dir / "logs")
    env = lineup_env(
        REDIS_URL=common.REDIS_URL,
        LINEUP_CELERY_QUEUE=QUEUE,
        LINEUP_SCHEDULER="celery",
        LINEUP_SWEEP_SECONDS=str(SWEEP_SECONDS),
        LINEUP_OUTBOX_REDELIVERY_SECONDS=str(REDELIVERY_SECONDS),
        LINEUP_OUTBOX_REDELIVERY_MAX_SECONDS="4",
        LINEUP_LOG_FORMAT="json",
        LINEUP_REFERENCE_AGENT_URL="",
        LINEUP_SERVE_STATIC="0",
    )
    rig = CrashRig(
        processes=supervisor,
        log_dir=run_dir / "logs",
        redis_port=redis_port,
        daphne_port=free_port(),
        env=env,
        more_daphnes={"daphne-b": free_port()},
    )
    return _soak(args, seed, max_seconds, run_dir, cluster, rig, history, common)


def _soak(
    args: argparse.Namespace,
    seed: int,
    max_seconds: float,
    run_dir: Path,
    cluster: Any,
    rig: Any,
    history: Any,
    common: Any,
) -> int:
    """Start the topology, run the operations under the faults, drain, check the history."""
    started = time.monotonic()
    supervisor = rig.processes
    sqlite = args.engine == "sqlite"
    stop = threading.Event()
    threads: list[threading.Thread] = []
    try:
        if not sqlite:
            rig.start("redis")
            rig.wait_ready("redis")
        log("migrating the soak's database")
        common.prepare_database()
        source = OpSource(seed, args.ops)
        daphne_ports = [rig.daphne_port] if sqlite else [rig.daphne_port, rig.more_daphnes["daphne-b"]]
        socket_threads, mcp_threads, people = create_world(seed, source, daphne_ports)
        roles = ("server",) if sqlite else ("daphne", "daphne-b", "worker", "beat")
        for role in roles:
            rig.start(role)
        rig.wait_ready(*roles, timeout=120)
        if sqlite:
            log(f"topology up in {time.monotonic() - started:.0f}s: run_embedded :{rig.daphne_port} on {cluster.path}")
        else:
            log(
                f"topology up in {time.monotonic() - started:.0f}s: 2 Daphne, worker, beat, Redis :{rig.redis_port}, PostgreSQL :{cluster.port}"
            )

        agents = [*socket_threads, *mcp_threads]
        injector = FaultInjector(plan_faults(seed, args.cycles, args.engine), args.ops, rig, cluster, agents)
        injector.source = source
        for name, target in (
            *((t.record.name, t.run) for t in agents),
            *((f"person-{uid}", p.run) for uid, p in people.items()),
            ("faults", injector.run),
        ):
            thread = threading.Thread(target=_guarded(target, stop, name), name=name, daemon=True)
            thread.start()
            threads.append(thread)

        run_started = time.monotonic()
        last_line = 0.0
        timed_out = False
        while not (all(a.idle for a in agents) and injector.ended_at is not None):
            if injector.error or HARNESS_ERRORS:
                source.closed = True
                break
            now = time.monotonic()
            if now - run_started > max_seconds and not source.closed:
                source.closed = True
                timed_out = True
                log(f"--max-seconds {max_seconds:.0f} reached: no more operations")
            if now - last_line > 10:
                last_line = now
                log(
                    f"{now - run_started:5.0f}s ops {source.finished}/{args.ops} done ({source.taken} taken) | "
                    f"faults {len(injector.applied)}/{args.cycles} {dict(injector.by_kind)} | "
                    f"self-exits {dict(rig.self_exits)}"
                )
            if now - run_started > max_seconds + 300:
                break
            time.sleep(0.2)
        log(f"operations and faults over after {time.monotonic() - run_started:.0f}s; draining")
        # The final drain (no more faults): every Agent connects again, so each new welcome sends
        # whatever it still holds unacked, and the accounting judges what arrived by then.
        for thread in socket_threads:
            thread.sever_requested.set()
        drained = _drain(socket_threads, people, deadline=time.monotonic() + DRAIN_TIMEOUT)
        stop.set()
        for thread in threads:
            thread.join(timeout=15)
        duration = time.monotonic() - run_started

        record = {
            "seed": seed,
            "engine": args.engine,
            "ops": args.ops,
            "cycles": args.cycles,
            "ops_done": source.finished,
            "timed_out": timed_out,
            "drained": drained,
            "duration_seconds": round(duration, 1),
            "sweep_seconds": SWEEP_SECONDS,
            "lateness_seconds": args.lateness,
            "faults": injector.applied,
            "faults_by_kind": dict(injector.by_kind),
            "faults_ended_at": injector.ended_at,
            "harness_errors": [e for e in [injector.error, *HARNESS_ERRORS] if e],
            "self_exits": dict(rig.self_exits),
            "kills": dict(rig.kills),
            "agents": [_agent_history(t) for t in socket_threads] + [_mcp_history(t) for t in mcp_threads],
            "people": [
                {
                    "user_id": p.user_id,
                    "messages": p.messages,
                    "actions": dict(p.actions),
                    "refused": dict(p.refused),
                    "anomalies": p.anomalies,
                }
                for p in people.values()
            ],
            "log_dir": str(run_dir / "logs"),
            "database_url": common.DATABASE_URL,
        }
        (run_dir / "history.json").write_text(json.dumps(record, indent=1, default=str))
        from django.db import connections

        connections.close_all()  # the soak's own connection did not survive the PostgreSQL restarts
        report = history.check(record)
        (run_dir / "report.json").write_text(json.dumps(report, indent=1, default=str))
        print(history.verdict_line(report), flush=True)
        print(json.dumps(report, default=str), flush=True)
        return 0 if report["ok"] else 1
    finally:
        stop.set()
        supervisor.stop_all(grace=3.0)


HARNESS_ERRORS: list[str] = []


def _guarded(target: Any, stop: threading.Event, name: str) -> Any:
    def body() -> None:
        try:
            target(stop)
        except Exception as error:  # a harness bug must fail the run, not hide in a thread
            HARNESS_ERRORS.append(f"{name}: {error!r}")
            log(f"thread {name} failed: {error!r}")

    return body


def _drain(socket_threads: list[SocketAgentThread], people: dict[int, Person], *, deadline: float) -> bool:
    """Wait (bounded) until the people have nothing left to send and every result and message is acked."""
    from django.db import connections

    from interact.models import MessageDelivery
    from runtime.models import OutboxEntry

    socket_agents = [t.record.agent_id for t in socket_threads]
    while time.monotonic() < deadline:
        with people_lock(people):
            busy = any(p.requests for p in people.values())
        try:
            pending = (
                OutboxEntry.objects.filter(acked_at__isnull=True).count()
                + MessageDelivery.objects.filter(acked_at__isnull=True, agent_id__in=socket_agents).count()
            )
        except Exception:
            connections.close_all()
            pending = -1
        if not busy and pending == 0:
            return True
        time.sleep(0.5)
    return False


@contextlib.contextmanager
def people_lock(people: dict[int, Person]):
    locks = [p.lock for p in people.values()]
    for lock in locks:
        lock.acquire()
    try:
        yield
    finally:
        for lock in locks:
            lock.release()


def _agent_history(thread: SocketAgentThread) -> dict[str, Any]:
    agent = thread.agent
    to_wall_clock = time.time() - time.monotonic()  # faults are stamped with time.time()
    return {
        **asdict(thread.record),
        "deliveries": [
            {
                "outbox_id": d.outbox_id,
                "conversation_id": d.conversation_id,
                "source_tool_call_id": d.source_tool_call_id,
                "result": d.result,
                "received_at": d.at + to_wall_clock,
            }
            for d in agent.deliveries
        ],
        "user_messages": [m["message_id"] for m in agent.user_messages],
        "welcomes": agent.welcomes,
        "drops": len(agent.drops),
        "unexpected": agent.unexpected,
    }


def _mcp_history(thread: McpAgentThread) -> dict[str, Any]:
    return {**asdict(thread.record), "deliveries": [], "user_messages": [], "drops": thread.drops, "unexpected": []}


if __name__ == "__main__":
    sys.exit(main())
