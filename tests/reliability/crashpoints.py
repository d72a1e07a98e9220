"""The crash-point harness: kill a real process at step k of one decision, recover, check everything.

A **case** is (kind, k, seed). Its kind names a decision and the process it runs in:

| kind | decision (``runtime.crashpoints`` scope) | process |
|---|---|---|
| start | ``start_operation`` | Daphne (the Agent's ``pomodoro.start``) |
| start_beside | ``start_operation`` | Daphne (a ``quiz.start`` during a focus: the start switches, the focus ends ``switched_app``) |
| interrupt | ``interrupt_operation`` | Daphne (``pomodoro.interrupt`` of a running focus) |
| eta | ``settle_operation`` | Celery worker (the eta task at ``ends_at``; the beat is down) |
| sweep | ``settle_due_batch`` | Celery worker (the beat sweep's batch of two due focuses; no eta task) |
| recover | ``settle_due_batch`` | ``manage.py recover_runtime`` (two focuses that fell due while all was down) |
| deliver | ``deliver`` | Daphne (the delivery round after ``welcome``: read, ``mark_sent``, socket write) |
| ack | ``ack`` | Daphne (the Agent's ``outbox.ack``) |
| close | ``close_instance`` | Daphne (the person closes Pomodoro while it focuses: ``app.close``) |
| switch | ``return_to_interact`` | Daphne (the person returns to Interact while it focuses) |
| message | ``post_human_message`` | Daphne (the person's ``message.send``; then its delivery to the Agent) |
| snapshot | ``save_snapshot`` | Daphne (the Surface's ``state.save`` of a running Pomodoro) |
| answer | ``answer_interaction`` | Daphne (the person answers the Agent's confirm; its resolution reaches the Agent) |
| open | ``save_instance_state`` | Daphne (the Agent's first ``notes.append``: opens Notes, no deadline, and saves the line) |
| note | ``save_instance_state`` | Daphne (a later ``notes.append`` on the open Notes instance) |
| close_note | ``close_instance`` | Daphne (the person closes Notes, which runs no operation: ``app.close``) |
| open_instance | ``open_instance`` | Daphne (the crash rig's app's ``crashpad.open``: an instance with its first state) |
| close_by_agent | ``close_instance`` | Daphne (the Agent's ``crashpad.close`` of an instance running no operation) |

A case starts its process with ``LINEUP_CRASH_AT=<decision>:<k>``; the process dies by ``os._exit``
at step k (``runtime/crashpoints.py`` lists the steps). The harness sees the ``CRASH`` line in the
trace, SIGKILLs the rest of the process group (a worker's pool: the whole node dies), starts it again
unarmed, and lets the protocol recover: the Agent reconnects and gets a new ``welcome``, sends every
call that had no answer again with the same ``source_tool_call_id``, acks each result; the beat sweep
or a second ``recover_runtime`` settles what is due. Then ``bench.history.check_case`` judges the
database and what the Agent saw, and the Agent sends its calls once more (each must be answered
from the stored rows) and reconnects once more (nothing acked may come again).

``k = -1`` is the uncrashed run; its trace's length n is the number of crash points, so
``k = 0 … n-1`` is the full enumeration of that kind, whatever statements the decision gains.

**On SQLite** (``EMBEDDED_KINDS``, the ``EmbeddedRig``) every kind runs in the embedded server
(``manage.py run_embedded``), which is Daphne, worker and beat at once; the worker's kinds become
the in-process scheduler's: ``eta`` is its wake-up at ``ends_at`` (its sweep's batch of one), ``sweep``
its first pass after a restart (two focuses fell due while the server was down), ``recover`` is
``manage.py recover_runtime`` on the SQLite file while the server is down. Both engines have the
same kinds (tests/reliability/test_crashpoints_sqlite.py checks).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.utils import timezone

from bench.history import check_case
from bench.soak import Person
from interact.models import Interaction, MessageDelivery
from runtime.models import AppInstance, Conversation, InstanceSnapshot, LifecycleEvent, Operation, OutboxEntry
from runtime.services.agents import create_agent_token
from runtime.services.conversations import conversation_get_or_create_default
from runtime.transitions import RUNNING_STATES
from tests.reliability.agent import CrashAgent
from tests.reliability.conftest import Rig
from tests.support.processes import ROOT, manage_py_argv

KINDS: dict[str, tuple[str, str]] = {  # kind -> (decision scope, process role)
    "start": ("start_operation", "daphne"),
    "start_beside": ("start_operation", "daphne"),
    "interrupt": ("interrupt_operation", "daphne"),
    "eta": ("settle_operation", "worker"),
    "sweep": ("settle_due_batch", "worker"),
    "recover": ("settle_due_batch", "recover_runtime"),
    "deliver": ("deliver", "daphne"),
    "ack": ("ack", "daphne"),
    "close": ("close_instance", "daphne"),
    "switch": ("return_to_interact", "daphne"),
    "message": ("post_human_message", "daphne"),
    "snapshot": ("save_snapshot", "daphne"),
    "answer": ("answer_interaction", "daphne"),
    "open": ("save_instance_state", "daphne"),
    "note": ("save_instance_state", "daphne"),
    "close_note": ("close_instance", "daphne"),
    "open_instance": ("open_instance", "daphne"),
    "close_by_agent": ("close_instance", "daphne"),
}
# The same kinds on SQLite, in the embedded server (one process) or recover_runtime on the file.
EMBEDDED_KINDS: dict[str, tuple[str, str]] = {
    "start": ("start_operation", "server"),
    "start_beside": ("start_operation", "server"),
    "interrupt": ("interrupt_operation", "server"),
    "eta": ("settle_due_batch", "server"),  # the scheduler's wake-up at ends_at: a batch of one
    "sweep": ("settle_due_batch", "server"),  # the restarted server's first pass: both due focuses
    "recover": ("settle_due_batch", "recover_runtime"),
    "deliver": ("deliver", "server"),
    "ack": ("ack", "server"),
    "close": ("close_instance", "server"),
    "switch": ("return_to_interact", "server"),
    "message": ("post_human_message", "server"),
    "snapshot": ("save_snapshot", "server"),
    "answer": ("answer_interaction", "server"),
    "open": ("save_instance_state", "server"),
    "note": ("save_instance_state", "server"),
    "close_note": ("close_instance", "server"),
    "open_instance": ("open_instance", "server"),
    "close_by_agent": ("close_instance", "server"),
}
SETTLING_KINDS = ("eta", "sweep", "recover")  # their uncrashed run must settle something (below)


def kinds_of(engine: str) -> dict[str, tuple[str, str]]:
    """kind -> (decision scope, process role) on the rig's engine."""
    return EMBEDDED_KINDS if engine == "sqlite" else KINDS


STEP_TIMEOUT = 45.0  # one phase of a case on a busy 2-core machine
FRAME_ERRORS = frozenset({"invalid_frame", "malformed_frame", "unknown_frame_type", "frame_too_large"})
DRAIN_TIMEOUT = 15.0  # the results of a recovered case arrive within a sweep and a redelivery or two
REDELIVERY_WAIT = 1.3  # the new welcome sends all unacked at once; > one redelivery round (1 s) too


def replay_command(kind: str, k: int, seed: int, engine: str = "postgresql") -> str:
    on = " --engine sqlite" if engine == "sqlite" else ""
    return f"python -m bench.crashpoints{on} --case {kind}:{k}:{seed}"


@dataclass
class CaseResult:
    kind: str
    k: int
    seed: int
    steps: list[str]  # the trace: one label per step reached
    crashed_at: str | None  # the label of step k, when the process died there
    violations: list[str]
    seconds: float
    figures: dict[str, Any] = field(default_factory=dict)
    engine: str = "postgresql"

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.k}:{self.seed}"

    @property
    def replay(self) -> str:
        return replay_command(self.kind, self.k, self.seed, self.engine)

    def as_dict(self) -> dict[str, Any]:
        return {
            "case": self.name,
            "crashed_at": self.crashed_at,
            "steps": len(self.steps),
            "violations": self.violations,
            "seconds": round(self.seconds, 1),
            "replay": self.replay,
            "engine": self.engine,
            **self.figures,
        }


@dataclass
class Case:
    rig: Rig
    kind: str
    k: int
    seed: int
    trace: Path
    agent: CrashAgent
    conversations: list[str]
    answers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # call id -> every answer
    calls: dict[str, tuple[str, str, dict[str, Any]]] = field(default_factory=dict)  # call id -> (conv, tool, args)
    crashed_at: str | None = None
    notes: list[str] = field(default_factory=list)
    page_messages: list[dict[str, Any]] = field(default_factory=list)  # what the page was told of its messages
    page_problems: list[str] = field(default_factory=list)

    @property
    def decision(self) -> str:
        return kinds_of(self.rig.engine)[self.kind][0]

    @property
    def role(self) -> str:
        return kinds_of(self.rig.engine)[self.kind][1]

    @property
    def replay(self) -> str:
        return replay_command(self.kind, self.k, self.seed, self.rig.engine)

    # --- the crash --------------------------------------------------------------------------------

    def armed_env(self) -> dict[str, str]:
        return {**self.rig.env, "LINEUP_CRASH_AT": f"{self.decision}:{self.k}", "LINEUP_CRASH_TRACE": str(self.trace)}

    def arm(self) -> None:
        """(Re)start the case's role with the crash armed, and wait until it is ready (or died at
        its step while coming up, and was started again: the embedded server's first scheduler
        pass runs as it starts)."""
        if self.rig.current.get(self.role) is not None and self.role not in self.rig.down:
            self.rig.kill(self.role)
        base, self.rig.env = self.rig.env, self.armed_env()
        try:
            self.rig.start(self.role)
        finally:
            self.rig.env = base
        self.drive(lambda: self.rig.ready(self.role), what=f"the armed {self.role} to be ready")

    def steps(self) -> list[str]:
        try:
            lines = self.trace.read_text().splitlines()
        except FileNotFoundError:
            return []
        return [line.split("\t", 1)[1] for line in lines if not line.startswith("CRASH")]

    def crash_seen(self) -> str | None:
        try:
            text = self.trace.read_text()
        except FileNotFoundError:
            return None
        for line in text.splitlines():
            if line.startswith("CRASH\t"):
                return line.split("\t", 2)[2]
        return None

    def tick(self) -> None:
        """If the armed process died at its step, finish the kill (its whole group) and restart it."""
        if self.crashed_at is not None or self.role == "recover_runtime":
            return
        label = self.crash_seen()
        if label is None:
            return
        self.crashed_at = label
        self.notes.append(f"{self.role} died at step {self.k} ({label})")
        self.rig.kill(self.role)
        self.rig.start(self.role)

    def drive(self, until: Callable[[], Any], *, what: str, timeout: float = STEP_TIMEOUT, soft: bool = False) -> Any:
        """Pump the Agent and restart a crashed process until ``until()``; at the deadline fail the
        case, or (``soft``) return None and let the checker name what is missing."""
        deadline = time.monotonic() + timeout
        while True:
            self.tick()
            value = until()
            if value:
                return value
            if time.monotonic() > deadline:
                if soft:
                    return None
                pytest.fail(f"case {self.kind}:{self.k}:{self.seed}: timed out waiting for {what}\n{self.context()}")
            self.agent.pump(0.05)

    def context(self) -> str:
        return (
            f"replay: {self.replay}\nnotes: {self.notes}\n"
            f"trace: {self.steps()} crashed_at={self.crashed_at}\nagent drops: {self.agent.drops}\n"
            f"{self.rig.describe()}"
        )

    # --- the Agent's calls, sent again until answered (the protocol's retry) ----------------------

    def call(self, conversation_id: str, call_id: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Send the call; on a lost connection or ``internal_error`` send it again, same call id."""
        self.calls[call_id] = (conversation_id, tool, arguments)
        box: list[dict[str, Any] | None] = []
        pending = False

        def on_answer(answer: dict[str, Any] | None) -> None:
            box.append(answer)

        def answered() -> dict[str, Any] | None:
            nonlocal pending
            while box:
                answer = box.pop(0)
                pending = False
                if answer is None or (answer["type"] == "error" and answer.get("code") == "internal_error"):
                    continue  # cut off or failed: the same call again
                self.answers.setdefault(call_id, []).append(answer)
                return answer
            if not pending and self.agent.ready:
                pending = self.agent.tool_call(conversation_id, call_id, tool, arguments, on_answer)
            return None

        return self.drive(answered, what=f"an answer to {tool} {call_id}")

    def start(self, conversation_id: str, call_id: str, seconds: int) -> str:
        answer = self.call(conversation_id, call_id, "pomodoro.start", {"duration_seconds": seconds})
        if answer["type"] != "tool.accepted":
            pytest.fail(f"{call_id} answered {answer}\n{self.context()}")
        return answer["operation_id"]


# --- the scenarios: one per kind ----------------------------------------------------------------------


def _all_final(operation_ids: list[str]) -> bool:
    return not Operation.objects.filter(pk__in=operation_ids, state__in=RUNNING_STATES).exists()


def _wait_due(case: Case, operation_ids: list[str]) -> None:
    latest = max(Operation.objects.filter(pk__in=operation_ids).values_list("ends_at", flat=True))
    case.drive(lambda: timezone.now() > latest + timedelta(milliseconds=50), what="the focuses to fall due")


def _crash_or(case: Case, done: Callable[[], bool], what: str) -> None:
    case.drive(lambda: case.crashed_at is not None or done(), what=f"the armed step or {what}")


def _scenario_start(case: Case, rng: random.Random) -> None:
    case.arm()
    case.start(case.conversations[0], "start", rng.choice((1, 2)))


def _scenario_start_beside(case: Case, rng: random.Random) -> None:
    """A quiz started while a focus runs (Pomodoro's focus runs alone, decision 0041): one decision
    writes the quiz and ends the focus ``interrupted(switched_app)``; both get their one result."""
    focus = case.start(case.conversations[0], "start", 60)
    case.arm()
    questions = [{"prompt": "1 + 1 =", "answer": "2"}]
    answer = case.call(
        case.conversations[0], "quiz", "quiz.start", {"duration_seconds": rng.choice((1, 2)), "questions": questions}
    )
    if answer["type"] != "tool.accepted":
        pytest.fail(f"quiz.start answered {answer}\n{case.context()}")
    ended = Operation.objects.get(pk=focus)
    if (ended.state, ended.interruption_reason) != ("interrupted", "switched_app"):
        case.page_problems.append(f"switch: the focus is {ended.state} {ended.interruption_reason}")


def _scenario_interrupt(case: Case, rng: random.Random) -> None:
    case.start(case.conversations[0], "start", 60)
    case.arm()
    answer = case.call(case.conversations[0], "stop", "pomodoro.interrupt", {})
    if answer["type"] != "tool.receipt":
        pytest.fail(f"interrupt answered {answer}\n{case.context()}")


def _scenario_eta(case: Case, rng: random.Random) -> None:
    """PostgreSQL: the worker's eta task settles the focus (the beat is down). SQLite: the embedded
    scheduler wakes at ``ends_at`` and its sweep settles it, a batch of one."""
    if case.rig.engine != "sqlite":
        case.rig.kill("beat")  # no sweep: the eta task alone settles it
    case.arm()
    op = case.start(case.conversations[0], "start", 1)
    _crash_or(case, lambda: not Operation.objects.filter(pk=op, state__in=RUNNING_STATES).exists(), "the settlement")


def _start_batch(case: Case, rng: random.Random) -> list[str]:
    return [case.start(conv, f"start-{i}", rng.choice((1, 2))) for i, conv in enumerate(case.conversations)]


def _scenario_sweep(case: Case, rng: random.Random) -> None:
    if case.rig.engine == "sqlite":
        # Both focuses fall due while the server is down; the armed server's first pass (the
        # scheduler's recovery as it starts) settles both in one batch.
        ops = _start_batch(case, rng)
        case.rig.kill("server")
        _wait_due(case, ops)
        case.arm()
        _crash_or(case, lambda: not Operation.objects.filter(pk__in=ops, state__in=RUNNING_STATES).exists(), "the pass")
        return
    for role in ("beat", "worker"):
        case.rig.kill(role)
    ops = _start_batch(case, rng)
    # Every eta task is dropped with Redis, so the sweep's batch settles both.
    case.rig.kill("redis")
    case.rig.start("redis")
    case.rig.wait_ready("redis")
    _wait_due(case, ops)
    case.arm()
    case.rig.start("beat")
    _crash_or(case, lambda: Operation.objects.filter(pk__in=ops, state__in=RUNNING_STATES).count() == 0, "the sweep")


def _scenario_recover(case: Case, rng: random.Random) -> None:
    if case.rig.engine == "sqlite":
        ops = _start_batch(case, rng)
        case.rig.kill("server")  # the operator's recover_runtime runs on the file while it is down
    else:
        for role in ("beat", "worker"):
            case.rig.kill(role)
        ops = _start_batch(case, rng)
    _wait_due(case, ops)
    run = subprocess.run(
        manage_py_argv("recover_runtime", "--json"),
        cwd=ROOT,
        env=case.armed_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    case.crashed_at = case.crash_seen()
    expected = 137 if case.crashed_at is not None else 0
    if run.returncode != expected:
        pytest.fail(f"recover_runtime exited {run.returncode}, expected {expected}\n{run.stderr[-3000:]}")
    if case.crashed_at is not None:
        case.notes.append(f"recover_runtime died at step {case.k} ({case.crashed_at}); run again")
        summary = case.rig.recover_runtime()
        case.notes.append(f"second recover_runtime settled {summary.get('settled')}")


def _scenario_offline_result(case: Case, rng: random.Random) -> None:
    """The result is settled while the Agent is away; the armed Daphne delivers it (and takes the ack)."""
    op = case.start(case.conversations[0], "start", 1)
    case.agent.close()
    deadline = time.monotonic() + STEP_TIMEOUT
    while Operation.objects.filter(pk=op, state__in=RUNNING_STATES).exists():  # the Agent is offline: no pump
        assert time.monotonic() < deadline, f"operation {op} never settled\n{case.context()}"
        time.sleep(0.05)
    case.arm()


def _person(case: Case) -> Person:
    """The workspace page of the case's user: a session cookie, a ``/ws/workspace/`` connection
    that reconnects and sends its frame again until answered (a message with the same
    ``client_message_id``, so the server stores it once)."""
    user = Conversation.objects.get(pk=case.conversations[0]).owner
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save(must_create=True)
    return Person(user.pk, f"{settings.SESSION_COOKIE_NAME}={store.session_key}", [case.rig.daphne_port])


def _page_does(case: Case, person: Person, frame_type: str, body: dict[str, Any]) -> None:
    """The person's frame, in a thread (it waits for its answer) while the harness restarts Daphne."""
    thread = threading.Thread(target=person._handle, args=(frame_type, body), daemon=True)
    thread.start()
    case.drive(lambda: not thread.is_alive(), what=f"the page's {frame_type}", timeout=STEP_TIMEOUT + 20)
    person._close()
    case.page_messages.extend(person.messages)
    case.notes.append(f"page {frame_type}: refused {dict(person.refused)} anomalies {person.anomalies}")
    # A retry after a crash past the commit may be refused (the instance is closed already); a frame
    # refused as malformed, or anything the page did not expect, is the harness's or the server's fault.
    case.page_problems += [f"page: {a}" for a in person.anomalies]
    case.page_problems += [
        f"page: {frame_type} refused {code}" for code in person.refused if code.split(":", 1)[1] in FRAME_ERRORS
    ]


def _scenario_lifecycle(frame_type: str) -> Callable[[Case, random.Random], None]:
    def scenario(case: Case, rng: random.Random) -> None:
        conversation_id = case.conversations[0]
        op = case.start(conversation_id, "start", 60)
        instance_id = str(Operation.objects.values_list("instance_id", flat=True).get(pk=op))
        case.arm()
        body = {"conversation_id": conversation_id}
        if frame_type == "app.close":  # the instance to close; a return names none
            body["instance_id"] = instance_id
        _page_does(case, _person(case), frame_type, body)

    return scenario


def _scenario_message(case: Case, rng: random.Random) -> None:
    """The person sends a message, with its ``client_message_id`` as the page does: an answer lost to
    the crash (one past the commit too) makes the page send it again, and the id stores it once."""
    case.arm()
    body = {
        "conversation_id": case.conversations[0],
        "text": f"hi {rng.random()}",
        "client_message_id": f"crash-{case.k}-{case.seed}-{rng.randrange(10**9)}",
    }
    _page_does(case, _person(case), "message.send", body)


def _scenario_snapshot(case: Case, rng: random.Random) -> None:
    """The Surface saves its state (revision 0 -> 1) while it focuses; the Agent then interrupts it.

    A save cut off is sent again as it was (same expected revision), so one that had committed is
    refused ``stale_revision``; either way the snapshot is all or nothing: revision 0 and no state,
    or revision 1 and exactly the state sent."""
    conversation_id = case.conversations[0]
    op = case.start(conversation_id, "start", 60)
    row = Operation.objects.get(pk=op)
    state = {
        "operation_id": op,
        "started_at": row.started_at.isoformat(),
        "ends_at": row.ends_at.isoformat(),
        "display_state": "focusing",
        "activity": f"crash {rng.randrange(1000)}",
    }
    case.arm()
    body = {"conversation_id": conversation_id, "instance_id": str(row.instance_id), "state": state, "revision": 0}
    _page_does(case, _person(case), "state.save", body)
    snapshot = InstanceSnapshot.objects.get(instance_id=row.instance_id)
    if (snapshot.revision, snapshot.state) not in ((0, None), (1, state)):
        case.page_problems.append(f"half_written: snapshot revision {snapshot.revision} state {snapshot.state}")
    case.call(conversation_id, "stop", "pomodoro.interrupt", {})


def _notes(case: Case) -> list[tuple[int, dict[str, Any] | None, str]]:
    """Every Notes instance of the case's conversation: (snapshot revision, state, lifecycle state)."""
    return list(
        InstanceSnapshot.objects.filter(
            instance__conversation_id=case.conversations[0], instance__app_id="notes"
        ).values_list("revision", "state", "instance__lifecycle_state")
    )


def _append(case: Case, call_id: str, text: str) -> dict[str, Any]:
    answer = case.call(case.conversations[0], call_id, "notes.append", {"text": text})
    if answer["type"] != "tool.receipt" or answer["receipt"].get("status") != "appended":
        pytest.fail(f"notes.append {call_id} answered {answer}\n{case.context()}")
    return answer


def _scenario_open(case: Case, rng: random.Random) -> None:
    """The Agent's first ``notes.append`` in the conversation opens the Notes instance (no operation,
    no deadline) and saves its text in one decision; sent again with the same call id until answered;
    then a second line. All or nothing and once: one Notes instance, open, whose text is the two
    lines, each exactly once, at revision 2, and the first receipt names revision 1."""
    line = f"crash {rng.randrange(1000)}"
    case.arm()
    first = _append(case, "open", line)
    _append(case, "open-2", "after")
    if (notes := _notes(case)) != [(2, {"text": f"{line}\nafter"}, "background")]:
        case.page_problems.append(f"half_written or twice: notes {notes}")
    if first["receipt"].get("revision") != 1:
        case.page_problems.append(f"open: the first append's receipt names revision {first['receipt'].get('revision')}")


def _scenario_note(case: Case, rng: random.Random) -> None:
    """A later ``notes.append`` on the open Notes instance (revision 1 -> 2), cut anywhere and sent
    again with the same call id: the line appended exactly once, to the same instance."""
    _append(case, "open", "first")
    line = f"crash {rng.randrange(1000)}"
    case.arm()
    second = _append(case, "note", line)
    if (notes := _notes(case)) != [(2, {"text": f"first\n{line}"}, "background")]:
        case.page_problems.append(f"half_written or twice: notes {notes}")
    if second["receipt"].get("revision") != 2:
        case.page_problems.append(f"note: the append's receipt names revision {second['receipt'].get('revision')}")


def _scenario_close_note(case: Case, rng: random.Random) -> None:
    """The person closes the Notes instance the Agent opened (``app.close`` of an instance that runs
    no operation: closed, its sub-session ended, nothing settled); then the Agent reads the notes,
    closed and kept read-only, and a new line opens a new instance."""
    line = f"crash {rng.randrange(1000)}"
    opened = _append(case, "open", line)
    case.arm()
    body = {"conversation_id": case.conversations[0], "instance_id": opened["receipt"]["instance_id"]}
    _page_does(case, _person(case), "app.close", body)
    read = case.call(case.conversations[0], "read", "notes.read", {})
    if read["type"] != "tool.receipt" or (read["receipt"].get("open"), read["receipt"].get("text")) != (False, line):
        case.page_problems.append(f"close_note: notes.read after the close answered {read}")
    _append(case, "again", "after")
    if (notes := sorted(_notes(case), key=lambda n: n[2])) != [
        (1, {"text": "after"}, "background"),
        (1, {"text": line}, "closed"),
    ]:
        case.page_problems.append(f"close_note: notes {notes}")


def _pads(case: Case) -> list[tuple[int, dict[str, Any] | None, str]]:
    return list(
        InstanceSnapshot.objects.filter(
            instance__conversation_id=case.conversations[0], instance__app_id="crashpad"
        ).values_list("revision", "state", "instance__lifecycle_state")
    )


def _pad_call(case: Case, call_id: str, tool: str, arguments: dict[str, Any], status: str) -> dict[str, Any]:
    answer = case.call(case.conversations[0], call_id, tool, arguments)
    if answer["type"] != "tool.receipt" or answer["receipt"].get("status") != status:
        pytest.fail(f"{tool} {call_id} answered {answer}, not {status}\n{case.context()}")
    return answer


def _scenario_open_instance(case: Case, rng: random.Random) -> None:
    """The Agent opens an instance with its first state (``open_instance``: the crash rig's
    ``crashpad.open``), cut anywhere and sent again with the same call id: one instance, revision 1,
    the state sent, the receipt naming it."""
    text = f"crash {rng.randrange(1000)}"
    case.arm()
    opened = _pad_call(case, "open", "crashpad.open", {"text": text}, "opened")
    if (pads := _pads(case)) != [(1, {"text": text}, "background")]:
        case.page_problems.append(f"half_written or twice: pads {pads}")
    if (opened["receipt"].get("revision"), opened["receipt"].get("instance_id")) != (
        1,
        str(AppInstance.objects.get(conversation_id=case.conversations[0], app_id="crashpad").id),
    ):
        case.page_problems.append(f"open_instance: the receipt is {opened['receipt']}")


def _scenario_close_by_agent(case: Case, rng: random.Random) -> None:
    """The Agent closes the instance it opened, which runs no operation (the Agent's
    ``close_instance``: ``crashpad.close``), sent again with the same call id until answered: the
    first answer stored is every answer (``closed``, never ``no_open_instance`` for a retry), the
    instance closed once, its state kept."""
    text = f"crash {rng.randrange(1000)}"
    _pad_call(case, "open", "crashpad.open", {"text": text}, "opened")
    case.arm()
    _pad_call(case, "close", "crashpad.close", {}, "closed")
    if (pads := _pads(case)) != [(1, {"text": text}, "closed")]:
        case.page_problems.append(f"close_by_agent: pads {pads}")
    pad = AppInstance.objects.get(conversation_id=case.conversations[0], app_id="crashpad")
    closes = LifecycleEvent.objects.filter(instance_id=pad.id, kind="instance.closed").count()
    if closes > 1:
        case.page_problems.append(f"close_by_agent: closed {closes} times")


def _scenario_answer(case: Case, rng: random.Random) -> None:
    """The Agent asks the person to confirm; the person answers (a retry after a committed answer is
    refused ``interaction_resolved``); the resolution reaches the Agent, which acks it. Resolved once,
    with the value given, delivered with it, acked."""
    conversation_id = case.conversations[0]
    request = {
        "type": "interaction.request",
        "conversation_id": conversation_id,
        "interaction_id": "q1",
        "kind": "confirm",
        "prompt": "Ready?",
    }
    box: list[dict[str, Any] | None] = []
    case.drive(
        lambda: (
            (box and box[-1] is not None) or (case.agent.ready and not box and case.agent.send(request, box.append))
        ),
        what="the interaction request to be sent",
    )
    case.drive(lambda: box and box[-1] is not None, what="interaction.pending")
    interaction = Interaction.objects.get(conversation_id=conversation_id, interaction_id="q1")
    value = rng.choice((True, False))
    case.arm()
    _page_does(case, _person(case), "interaction.answer", {"interaction_id": str(interaction.pk), "value": value})
    if not case.drive(
        lambda: Interaction.objects.filter(pk=interaction.pk, resolution_delivered_at__isnull=False).exists(),
        what="the resolution acked",
        timeout=DRAIN_TIMEOUT,
        soft=True,
    ):
        case.page_problems.append("lost: the resolution never reached the Agent (or was never acked)")
    interaction.refresh_from_db()
    if (interaction.status, interaction.value) != ("answered", value):
        case.page_problems.append(
            f"answer: interaction is {interaction.status} {interaction.value!r}, answered {value}"
        )
    got = {(r["interaction_id"], r["status"], json.dumps(r["value"])) for r in case.agent.resolutions}
    if got != {("q1", "answered", json.dumps(value))}:
        case.page_problems.append(f"answer: the Agent got {got}")


SCENARIOS: dict[str, Callable[[Case, random.Random], None]] = {
    "answer": _scenario_answer,
    "open": _scenario_open,
    "note": _scenario_note,
    "close_note": _scenario_close_note,
    "open_instance": _scenario_open_instance,
    "close_by_agent": _scenario_close_by_agent,
    "snapshot": _scenario_snapshot,
    "close": _scenario_lifecycle("app.close"),
    "switch": _scenario_lifecycle("return_to_interact"),
    "message": _scenario_message,
    "start": _scenario_start,
    "start_beside": _scenario_start_beside,
    "interrupt": _scenario_interrupt,
    "eta": _scenario_eta,
    "sweep": _scenario_sweep,
    "recover": _scenario_recover,
    "deliver": _scenario_offline_result,
    "ack": _scenario_offline_result,
}


# --- a case, end to end ---------------------------------------------------------------------------


def run_case(rig: Rig, django_user_model: Any, kind: str, k: int, seed: int, log_dir: Path) -> CaseResult:
    began = time.monotonic()
    rng = random.Random(f"{kind}:{k}:{seed}")
    user = django_user_model.objects.create_user(username=f"cp-{kind}-{k}-{seed}-{time.monotonic_ns()}")
    conversations = [conversation_get_or_create_default(user=user)]
    if kind in ("sweep", "recover"):
        conversations.append(Conversation.objects.create(owner=user, title="second lane"))
    _, token = create_agent_token(user=user, name="crashpoint-agent", now=timezone.now())
    trace = log_dir / f"trace-{kind}-{k}-{seed}.tsv"
    trace.unlink(missing_ok=True)
    case = Case(
        rig=rig,
        kind=kind,
        k=k,
        seed=seed,
        trace=trace,
        agent=CrashAgent(rig.agent_url, token),
        conversations=[str(c.id) for c in conversations],
    )
    try:
        case.drive(lambda: case.agent.ready, what="the Agent's first welcome")
        SCENARIOS[kind](case, rng)
        # Recovery: every process up again (a supervisor's restart), the Agent retrying as it may.
        for role in rig.roles:
            if role in rig.down:
                rig.start(role)
        case.drive(lambda: all(rig.ready(role) for role in rig.roles), what="every process to be ready")
        operation_ids = [
            str(pk)
            for pk in Operation.objects.filter(conversation_id__in=case.conversations).values_list("pk", flat=True)
        ]
        problems: list[str] = []
        if not case.drive(lambda: _all_final(operation_ids), what="every operation final", soft=True):
            problems.append(f"drain: operations still focusing after {STEP_TIMEOUT:.0f} s")
        if not case.drive(
            lambda: (
                not OutboxEntry.objects.filter(conversation_id__in=case.conversations, acked_at__isnull=True).exists()
                and not MessageDelivery.objects.filter(
                    message__conversation_id__in=case.conversations, acked_at__isnull=True
                ).exists()
                and len(case.agent.first_deliveries()) >= len(operation_ids)
            ),
            what="every result delivered and acked",
            timeout=DRAIN_TIMEOUT,
            soft=True,
        ):
            problems.append(
                f"drain: {len(case.agent.first_deliveries())} results of {len(operation_ids)} operations "
                f"received within {DRAIN_TIMEOUT:.0f} s, or some unacked"
            )
        # The final drain: a retry of every call is answered from the stored rows, and a new
        # connection (a new welcome, which sends everything unacked) brings back nothing acked.
        retries = {}
        for call_id, (conversation_id, tool, arguments) in list(case.calls.items()):
            retries[call_id] = case.call(conversation_id, call_id, tool, arguments)
        delivered_before = len(case.agent.deliveries)
        welcomes = case.agent.welcomes
        case.agent.sever()
        case.drive(lambda: case.agent.welcomes > welcomes, what="the drain's new welcome")
        settle_until = time.monotonic() + REDELIVERY_WAIT
        case.drive(lambda: time.monotonic() > settle_until, what="the drain")
        late = [d.outbox_id for d in case.agent.deliveries[delivered_before:]]
        violations = (
            problems
            + case.page_problems
            + check_case(
                conversation_ids=case.conversations,
                agent_deliveries=[d.__dict__ for d in case.agent.deliveries],
                answers=case.answers,
                retries=retries,
                delivered_after_ack=late,
                page_messages=case.page_messages,
                agent_messages=[m["message_id"] for m in case.agent.user_messages],
            )
        )
        violations += [
            f"unexpected frame: {frame}" for frame in case.agent.unexpected if frame.get("code") != "internal_error"
        ]
        steps = case.steps()
        if 0 <= k < len(steps) and case.crashed_at is None:
            violations.append(f"step {k} was reached but the process did not die")
        if k < 0 and kind in SETTLING_KINDS and not any(_writes(step) for step in steps):
            # The first run of the decision in the armed process is the one counted: one that
            # settled nothing (a sweep with nothing due) would make every k of this kind miss the
            # settlement it is meant to cut.
            violations.append(f"the first {case.decision} of the {case.role} wrote nothing: {steps}")
    finally:
        case.agent.close()
    return CaseResult(
        kind=kind,
        k=k,
        seed=seed,
        steps=case.steps(),
        crashed_at=case.crashed_at,
        violations=violations,
        seconds=time.monotonic() - began,
        figures={"agent_connections": case.agent.welcomes, "raw_deliveries": len(case.agent.deliveries)},
        engine=rig.engine,
    )


def _writes(step: str) -> bool:
    return step.startswith("before-sql") and any(verb in step for verb in ("UPDATE", "INSERT"))


def write_results(path: Path, results: list[CaseResult]) -> None:
    with path.open("a") as out:
        for result in results:
            out.write(json.dumps(result.as_dict()) + "\n")


# --- a kind: its uncrashed run, then its cases (the tests' and bench.crashpoints' driver) -------------

SAMPLED = int(os.environ.get("LINEUP_CRASHPOINTS_SAMPLE", "1"))  # ks per kind in a sample run


def run_seed() -> int:
    """``LINEUP_CRASH_SEED``, or a new one."""
    seed_text = os.environ.get("LINEUP_CRASH_SEED", "").strip()
    return int(seed_text) if seed_text else random.SystemRandom().randrange(10**6)


def case_plan(kind: str, seed: int) -> tuple[int, list[int] | None]:
    """(seed, the ks ``LINEUP_CRASHPOINTS`` selects, or None for every k / a sample once n is known)."""
    selection = os.environ.get("LINEUP_CRASHPOINTS", "").strip()
    if selection and selection != "all":
        ks = []
        for item in selection.split(","):
            name, k, *rest = item.split(":")
            if name == kind:
                ks.append(int(k))
                if rest:
                    seed = int(rest[0])
        return seed, ks
    return seed, None


def run_kind(kind: str, rig: Rig, django_user_model: Any, log_dir: Path, seed: int) -> None:
    """The kind's uncrashed run (which counts its steps n), then its cases: every k
    (``LINEUP_CRASHPOINTS=all``), the selected ones, or ``SAMPLED`` seeded ones; fails with every
    failed case's replay command. Results go to ``LINEUP_CRASHPOINTS_OUT`` when set."""
    seed, chosen = case_plan(kind, seed)
    if chosen == []:
        pytest.skip(f"LINEUP_CRASHPOINTS selects no case of {kind}")
    results: list[CaseResult] = []
    if chosen is None:
        baseline = run_case(rig, django_user_model, kind, -1, seed, log_dir)
        results.append(baseline)
        n = len(baseline.steps)
        if os.environ.get("LINEUP_CRASHPOINTS", "").strip() == "all":
            chosen = list(range(n))
        else:
            chosen = sorted(random.Random(f"{kind}:{seed}").sample(range(n), min(SAMPLED, n)))
        print(f"\n[crashpoints] {rig.engine} {kind}: n={n} steps {baseline.steps}; cases k={chosen} seed={seed}")
    for k in chosen:
        result = run_case(rig, django_user_model, kind, k, seed, log_dir)
        print(
            f"[crashpoints] {rig.engine} {result.name}: {'FAIL' if result.violations else 'pass'} "
            f"crashed_at={result.crashed_at!r} {result.seconds:.1f}s - {result.replay}"
        )
        results.append(result)
    out = os.environ.get("LINEUP_CRASHPOINTS_OUT")
    if out:
        write_results(Path(out), results)
    failed = [r for r in results if r.violations]
    assert not failed, "\n".join(
        f"{r.name} (crashed at {r.crashed_at!r}): {r.violations} - replay: {r.replay}" for r in failed
    )
    for r in results[1:] if results[0].k < 0 else results:
        assert r.crashed_at is not None, f"{r.name} never reached its step: {r.steps}"


def run_sample(rig: Rig, django_user_model: Any, log_dir: Path, kinds_per_run: int) -> None:
    """CI's share: ``kinds_per_run`` kinds drawn from the seed, each its uncrashed run and its
    sampled ks, on one rig (a rig per kind would cost a third more)."""
    if os.environ.get("LINEUP_CRASHPOINTS", "").strip():
        pytest.skip("LINEUP_CRASHPOINTS is set: the per-kind test runs the selection")
    seed = run_seed()
    kinds = kinds_of(rig.engine)
    drawn = sorted(random.Random(seed).sample(list(kinds), min(kinds_per_run, len(kinds))))
    print(f"\n[crashpoints] {rig.engine} seed={seed}: kinds {drawn} (replay: LINEUP_CRASH_SEED={seed})")
    failures = []
    for kind in drawn:
        try:
            run_kind(kind, rig, django_user_model, log_dir, seed)
        except AssertionError as failure:
            failures.append(str(failure))
    assert not failures, "\n".join(failures)
