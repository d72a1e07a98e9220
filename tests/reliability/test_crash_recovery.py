"""Crashes of real processes: every operation ends exactly once and its result reaches the Agent.

The production topology (``conftest.CrashRig``: Redis, Daphne with ``LINEUP_SCHEDULER=celery``, a
Celery worker and the beat) serves one Agent (``agent.CrashAgent``) that runs a batch of short
focuses in several conversations at once, interrupting some of them, while:

1. **storm** — at seeded moments Daphne, the worker and the beat are SIGKILLed and Redis is
   restarted (every queued eta task, channel-layer group and hint is lost), each started again
   after a seeded downtime;
2. **outage** — with a last round in flight in every conversation, Daphne, worker and beat die
   together; some rounds fall due while nothing runs; the operator runs ``manage.py
   recover_runtime`` and starts everything again (docs/operations.md, § 13).

Then, from the database: every operation is final exactly once (one terminal state, one
settlement event, one outbox entry, acked), ``completed`` ones at their ``ends_at``; and from the
Agent: every outbox entry reached it — exactly once after dedupe by ``outbox_id`` (raw duplicates
are allowed by the protocol, and counted). The run's figures are printed (``pytest -s``).

A second test pins a bug the storm found: a ``hello`` that failed while Redis refused writes left
the connection authenticated but never welcomed, so a retried ``hello`` was refused and no result
ever reached that connection.

``LINEUP_CRASH_SEED=<n>`` replays a run's plan (which focuses, which interrupts, when each process
dies); without it a fresh seed is drawn and printed, and every failure message names it.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from lineup.gateways.agent_socket.frames import PROTOCOL
from runtime.clock import isoformat
from runtime.models import Conversation, LifecycleEvent, Operation, OutboxEntry
from runtime.services.agents import create_agent_token
from runtime.services.conversations import conversation_get_or_create_default
from runtime.tool_router import Caller
from runtime.transitions import InterruptionReason, OperationState
from tests.lineup.gateways.agent_socket.client import AgentSocket
from tests.reliability.agent import CrashAgent, Delivery
from tests.reliability.conftest import ROLES, CrashRig
from tests.support.factories import AgentDriver, planned_seconds
from tests.support.processes import wait_for

pytestmark = [pytest.mark.celery, pytest.mark.postgres]

CONVERSATIONS = 4
STORM_ROUNDS = 3  # per conversation, during the storm
STORM_WINDOW = 5.0  # seconds after the batch starts within which each process is killed
OUTAGE_SHORT, OUTAGE_LONG = 1, 6  # last-round durations: due while down / still running at recovery
INTERRUPT_SHARE = 0.4
DRAIN_TIMEOUT = 40.0
GUARD_PATIENCE = 4.0
SETTLEMENT_KINDS = ("operation.completed", "operation.interrupted")


@dataclass
class Round:
    """One focus an Agent asks for; ``interrupt_after`` seconds after it is accepted it asks to stop."""

    conversation_id: str
    call_id: str
    duration: int
    interrupt_after: float | None
    gap_before: float
    operation_id: str | None = None
    accepted_at: float | None = None
    in_flight: bool = False
    start_sends: int = 0
    replayed: int = 0
    interrupt_sends: int = 0
    receipt: dict[str, Any] | None = None


@dataclass
class Lane:
    """One conversation's rounds, one at a time, each until its result and its receipt are in."""

    conversation_id: str
    rounds: list[Round]
    failures: list[str]
    current: int = 0
    ready_at: float = 0.0

    @property
    def done(self) -> bool:
        return self.current >= len(self.rounds)

    def step(self, agent: CrashAgent, results: dict[tuple[str, str], Delivery], now: float) -> None:
        if self.done:
            return
        r = self.rounds[self.current]
        if r.in_flight or now < self.ready_at:
            return
        has_result = (r.conversation_id, r.call_id) in results
        if r.operation_id is None:
            self._send(agent, r, "pomodoro.start", r.call_id, {"duration_seconds": r.duration}, self._on_start)
        elif r.interrupt_after is not None and r.receipt is None and (r.interrupt_sends or not has_result):
            # Once sent, an interrupt is retried until its receipt arrives: its call may have committed.
            if now >= r.accepted_at + r.interrupt_after:
                self._send(agent, r, "pomodoro.interrupt", r.call_id + "-stop", {}, self._on_interrupt)
        elif has_result:
            self.current += 1
            if not self.done:
                self.ready_at = now + self.rounds[self.current].gap_before

    def _send(self, agent: CrashAgent, r: Round, tool: str, call_id: str, arguments: dict, on_answer) -> None:
        if agent.tool_call(r.conversation_id, call_id, tool, arguments, lambda answer: on_answer(r, answer)):
            r.in_flight = True
            if tool == "pomodoro.start":
                r.start_sends += 1
            else:
                r.interrupt_sends += 1

    def _on_start(self, r: Round, answer: dict[str, Any] | None) -> None:
        r.in_flight = False
        if answer is None:  # the connection died with the call in flight: send it again
            return
        if answer["type"] != "tool.accepted":
            self.failures.append(f"start {r.call_id}: {answer}")
            r.operation_id = "failed"
            return
        if r.operation_id is not None and r.operation_id != answer["operation_id"]:
            self.failures.append(f"start {r.call_id} retried into another operation: {answer}")
        r.operation_id = answer["operation_id"]
        r.replayed += bool(answer["replayed"])
        if r.accepted_at is None:
            r.accepted_at = time.monotonic()

    def _on_interrupt(self, r: Round, answer: dict[str, Any] | None) -> None:
        r.in_flight = False
        if answer is None:
            return
        if answer["type"] != "tool.receipt":
            self.failures.append(f"interrupt {r.call_id}: {answer}")
            r.receipt = {"status": "failed"}
            return
        r.receipt = answer["receipt"]


@dataclass
class Scenario:
    """The Agent, its lanes and the rig, driven by one loop; ``context`` goes into every failure."""

    seed: int
    rng: random.Random
    rig: CrashRig
    agent: CrashAgent
    lanes: list[Lane]
    failures: list[str] = field(default_factory=list)
    timeline: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)

    def results(self) -> dict[tuple[str, str], Delivery]:
        return {(d.conversation_id, d.source_tool_call_id): d for d in self.agent.first_deliveries().values()}

    def note(self, text: str) -> None:
        self.timeline.append(f"{time.monotonic() - self.started:6.2f}s {text}")

    def context(self) -> str:
        return (
            f"seed={self.seed} (replay: LINEUP_CRASH_SEED={self.seed})\n"
            f"timeline:\n  " + "\n  ".join(self.timeline) + f"\nagent drops: {self.agent.drops}\n"
            f"failures: {self.failures}\n{self.rig.describe()}"
        )

    def drive(self, until: Callable[[], bool], *, timeout: float, what: str, events=()) -> None:
        """Run the lanes, the Agent and the due ``events`` until ``until()``.

        An event is (offset seconds, label, action, guard): it fires at its offset, or later once
        ``guard(seconds late)`` holds.
        """
        pending = sorted(events, key=lambda e: e[0])
        begin = time.monotonic()
        while True:
            now = time.monotonic()
            # In order: a kill held back by its guard holds back the restart behind it too.
            while pending and now - begin >= pending[0][0] and pending[0][3](now - begin - pending[0][0]):
                _, label, action, _ = pending.pop(0)
                action()
                self.note(label)
            for role in self.rig.supervise():
                self.note(
                    f"{role} had exited by itself: started again (see {role}-{self.rig.incarnations[role] - 1}.log)"
                )
            if not pending and until():
                return
            if now - begin > timeout:
                pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}\n{self.context()}", pytrace=False)
            results = self.results()
            for lane in self.lanes:
                lane.step(self.agent, results, now)
            self.agent.pump(0.02)

    def lanes_done(self) -> bool:
        return all(lane.done for lane in self.lanes)

    def worker_holds_a_deadline(self) -> bool:
        """A focus that will reach its ends_at (no interrupt planned) runs for another second or more,
        accepted a moment ago: its eta task sits reserved, unacked, in the worker's memory."""
        now = time.monotonic()
        return self.rig.ready("worker") and any(
            r.accepted_at is not None
            and r.interrupt_after is None
            and 0.3 < now - r.accepted_at < r.duration - 1.0
            and (r.conversation_id, r.call_id) not in self.results()
            for lane in self.lanes
            for r in lane.rounds
        )


def _seed() -> int:
    configured = os.environ.get("LINEUP_CRASH_SEED", "").strip()
    return int(configured) if configured else random.SystemRandom().randrange(10**6)


def _plan_rounds(rng: random.Random, conversation_id: str, lane: int, count: int) -> list[Round]:
    rounds = []
    for index in range(count):
        duration = rng.randint(1, 3)
        interrupt_after = rng.uniform(0.2, duration - 0.1) if rng.random() < INTERRUPT_SHARE else None
        gap = rng.uniform(0.0, 0.4)
        rounds.append(Round(conversation_id, f"c{lane}-r{index}", duration, interrupt_after, gap))
    return rounds


def _storm_events(scenario: Scenario) -> list[tuple[float, str, Callable[[], None], Callable[[float], bool]]]:
    """Each role killed once at a seeded moment of the storm, started again after a seeded downtime.

    The worker's kill waits, if need be (at most GUARD_PATIENCE seconds), until it holds an eta task of a focus that will run to its
    end: a task lost with it, which only the beat sweep settles (without the guard an earlier Redis
    restart can leave the worker still reconnecting, holding nothing, when its kill comes).
    """
    rig, rng = scenario.rig, scenario.rng
    killed_at: dict[str, float] = {}
    events = []
    for role in ("daphne", "worker", "beat", "redis"):
        kill_at = rng.uniform(0.5, STORM_WINDOW)
        down = rng.uniform(0.2, 1.0) if role == "redis" else rng.uniform(0.3, 1.5)
        verb = "restart" if role == "redis" else "SIGKILL"

        def kill(role: str = role) -> None:
            rig.kill(role)
            killed_at[role] = time.monotonic()

        def down_long_enough(late: float, role: str = role, down: float = down) -> bool:
            return time.monotonic() - killed_at[role] >= down  # the downtime counts from the kill itself

        guard = _holding_a_deadline(scenario) if role == "worker" else _always
        events.append((kill_at, f"{verb} {role}: down", kill, guard))
        events.append(
            (kill_at + down, f"{verb} {role}: started again", lambda role=role: rig.start(role), down_long_enough)
        )
    return events


def _always(late: float) -> bool:
    return True


def _holding_a_deadline(scenario: Scenario) -> Callable[[float], bool]:
    # Not forever: when no round left can run to its end the kill lands anyway, GUARD_PATIENCE late.
    return lambda late: late > GUARD_PATIENCE or scenario.worker_holds_a_deadline()


def _settlements(operation_ids: list[str]) -> Counter[str]:
    return Counter(
        str(op_id)
        for op_id in LifecycleEvent.objects.filter(
            operation_id__in=operation_ids, kind__in=SETTLEMENT_KINDS
        ).values_list("operation_id", flat=True)
    )


@pytest.mark.spec(
    "R-2.2.5", "R-2.2.6", "R-2.2.8", "R-3.5", "R-3.7", "R-3.9", "R-4.2.7", "R-4.4.1", "R-4.4.2", "R-4.4.3"
)
def test_crashes_of_every_process_lose_and_double_no_result(crash_rig, django_user_model):
    """The storm and the outage (module docstring); the figures are printed, the seed is in every failure."""
    seed = _seed()
    rng = random.Random(seed)
    print(f"\n[crash] seed={seed} (replay: LINEUP_CRASH_SEED={seed})")

    user = django_user_model.objects.create_user(username="crash", password="pw-crash-123")
    conversations = [conversation_get_or_create_default(user=user)]
    conversations += [Conversation.objects.create(owner=user, title=f"lane {i}") for i in range(1, CONVERSATIONS)]
    token = create_agent_token(user=user, name="crash-agent", now=timezone.now())[1]
    agent = CrashAgent(crash_rig.agent_url, token)
    failures: list[str] = []
    lanes = [
        Lane(str(c.id), _plan_rounds(rng, str(c.id), i, STORM_ROUNDS), failures) for i, c in enumerate(conversations)
    ]
    scenario = Scenario(seed=seed, rng=rng, rig=crash_rig, agent=agent, lanes=lanes, failures=failures)
    try:
        _run(scenario)
    finally:
        agent.close()


def _run(s: Scenario) -> None:
    rig, agent, rng = s.rig, s.agent, s.rng

    # 1. The storm: the batch runs while every process dies once and comes back.
    s.note("storm begins")
    s.drive(s.lanes_done, timeout=45, what="the storm's rounds to end", events=_storm_events(s))
    s.drive(lambda: all(rig.ready(role) for role in ROLES), timeout=30, what="every process to be ready")
    s.note("storm over, every process ready")

    # 2. The outage: a last round in flight everywhere, then Daphne, worker and beat die together.
    outage_rounds = []
    for i, lane in enumerate(s.lanes):
        duration = OUTAGE_SHORT if i % 2 == 0 else OUTAGE_LONG
        outage_rounds.append(Round(lane.conversation_id, f"c{i}-last", duration, None, 0.0))
        lane.rounds.append(outage_rounds[-1])
    s.drive(lambda: all(r.operation_id for r in outage_rounds), timeout=20, what="the last rounds to start")
    agent.pump(rng.uniform(0.0, 0.3))  # the crash lands at a seeded moment after the last start
    roles = ["daphne", "worker", "beat"]
    rng.shuffle(roles)
    for role in roles:
        rig.kill(role)
    s.note(f"outage: SIGKILL {', '.join(roles)}")
    outage_ids = [r.operation_id for r in outage_rounds]
    focusing_at_crash = {
        str(op.id): op.ends_at for op in Operation.objects.filter(pk__in=outage_ids, state=OperationState.RUNNING)
    }
    short_ends = max(
        op.ends_at for op in Operation.objects.filter(pk__in=outage_ids) if planned_seconds(op) == OUTAGE_SHORT
    )
    # Real time passes the short rounds' ends_at while nothing runs (the subject of the test).
    wait_for(
        lambda: timezone.now() > short_ends + timedelta(seconds=0.3), timeout=10, what="the short rounds to fall due"
    )
    s.note("short rounds due; operator runs recover_runtime")
    recover_started = timezone.now()
    summary = rig.recover_runtime()
    recover_finished = timezone.now()
    s.note(f"recover_runtime: { ({k: summary[k] for k in ('due', 'settled', 'resumed', 'unacked_outbox')}) }")
    for role in ("worker", "beat", "daphne"):
        rig.start(role)
    s.note("worker, beat, daphne started again")

    # 3. Drain: the Agent reconnects and every result arrives.
    s.drive(s.lanes_done, timeout=DRAIN_TIMEOUT, what="every result to reach the Agent")
    s.drive(
        lambda: (
            not OutboxEntry.objects.filter(
                conversation_id__in=[lane.conversation_id for lane in s.lanes], acked_at__isnull=True
            ).exists()
        ),
        timeout=10,
        what="every outbox entry to be acked",
    )
    s.note("drained")

    _assert_recovery(s, summary, focusing_at_crash, recover_started, recover_finished)
    _assert_exactly_once(s)


def _assert_recovery(
    s: Scenario, summary: dict, focusing_at_crash: dict[str, datetime], started: datetime, finished: datetime
) -> None:
    """recover_runtime settled what fell due while nothing ran and resumed the rest (R-4.4.1/2)."""
    settled = set(summary["settled_ids"])
    resumed = {item["operation_id"]: item for item in summary["resumed"]}
    ctx = s.context()
    assert settled <= set(focusing_at_crash), f"recover settled operations that were not focusing: {summary}\n{ctx}"
    for op_id, ends_at in focusing_at_crash.items():
        if ends_at <= started:
            assert op_id in settled, f"{op_id} fell due while down but recover did not settle it: {summary}\n{ctx}"
        elif ends_at > finished:
            assert op_id in resumed, f"{op_id} still running but not resumed: {summary}\n{ctx}"
            assert resumed[op_id]["ends_at"] == isoformat(ends_at), f"resumed with another ends_at: {summary}\n{ctx}"


def _assert_exactly_once(s: Scenario) -> None:
    ctx = s.context
    conversation_ids = [lane.conversation_id for lane in s.lanes]
    rounds = [r for lane in s.lanes for r in lane.rounds]
    assert not s.failures, f"the Agent got answers it should not have: {s.failures}\n{ctx()}"

    # The database: one operation per start call, final, settled once, one outbox entry, acked.
    operations = {str(op.id): op for op in Operation.objects.filter(conversation_id__in=conversation_ids)}
    by_call = {(str(op.conversation_id), op.source_tool_call_id): op for op in operations.values()}
    assert len(by_call) == len(operations) == len(rounds), (
        f"{len(operations)} operations for {len(rounds)} start calls\n{ctx()}"
    )
    assert {r.operation_id for r in rounds} == set(operations), f"operations the Agent was never told of\n{ctx()}"
    settlements = _settlements(list(operations))
    entries = {str(e.operation_id): e for e in OutboxEntry.objects.filter(conversation_id__in=conversation_ids)}
    for op_id, op in operations.items():
        assert op.state in (OperationState.COMPLETED, OperationState.INTERRUPTED), f"{op_id} is {op.state}\n{ctx()}"
        assert settlements[op_id] == 1, f"{op_id} settled {settlements[op_id]} times\n{ctx()}"
        entry = entries.get(op_id)
        assert entry is not None, f"{op_id} is final without an outbox entry\n{ctx()}"
        assert entry.acked_at is not None, f"outbox entry of {op_id} never acked\n{ctx()}"
        assert entry.payload["result"]["state"] == op.state, f"{op_id}: outbox says {entry.payload}\n{ctx()}"
        if op.state == OperationState.COMPLETED:
            assert op.ended_at == op.ends_at, f"{op_id} completed at {op.ended_at}, not its ends_at\n{ctx()}"
        else:
            assert op.interruption_reason == InterruptionReason.AGENT_INTERRUPT, (
                f"{op_id}: {op.interruption_reason}\n{ctx()}"
            )
            assert op.ended_at <= op.ends_at, f"{op_id} interrupted after its ends_at\n{ctx()}"
    assert len(entries) == len(operations), f"{len(entries)} outbox entries for {len(operations)} operations\n{ctx()}"

    # The Agent's receipts agree with the terminal states (R-3.7, R-3.9: the first commit wins).
    for r in rounds:
        if r.receipt is not None:
            expected = {"interrupted": OperationState.INTERRUPTED, "operation_already_final": OperationState.COMPLETED}
            assert operations[r.operation_id].state == expected[r.receipt["status"]], f"{r}\n{ctx()}"

    # The Agent: every outbox entry reached it, exactly once after dedupe, with the stored result.
    first = s.agent.first_deliveries()
    outbox_ids = {str(e.id): e for e in entries.values()}
    assert set(first) == set(outbox_ids), (
        f"lost: {set(outbox_ids) - set(first)}, unknown: {set(first) - set(outbox_ids)}\n{ctx()}"
    )
    for outbox_id, delivery in first.items():
        entry = outbox_ids[outbox_id]
        assert (delivery.source_tool_call_id, delivery.result) == (
            entry.payload["source_tool_call_id"],
            entry.payload["result"],
        ), f"{outbox_id} delivered as {delivery}\n{ctx()}"

    _report(s, operations, settlements)


def _report(s: Scenario, operations: dict[str, Operation], settlements: Counter[str]) -> None:
    states = Counter(op.state for op in operations.values())
    raw, deduped = len(s.agent.deliveries), len(s.agent.first_deliveries())
    rounds = [r for lane in s.lanes for r in lane.rounds]
    lags = [
        (event.at - operations[str(event.operation_id)].ends_at).total_seconds()
        for event in LifecycleEvent.objects.filter(operation_id__in=list(operations), kind="operation.completed")
    ]
    print(
        f"[crash] seed={s.seed} conversations={len(s.lanes)} operations={len(operations)} "
        f"(completed={states[OperationState.COMPLETED]}, interrupted={states[OperationState.INTERRUPTED]})\n"
        f"[crash] kills: daphne={s.rig.kills['daphne']} worker={s.rig.kills['worker']} beat={s.rig.kills['beat']} "
        f"redis restarts={s.rig.kills['redis']}; exited by themselves (restarted): {dict(s.rig.self_exits)}\n"
        f"[crash] results at the Agent: raw={raw} deduped={deduped} duplicates={raw - deduped}; "
        f"welcomes={s.agent.welcomes} connection drops={len(s.agent.drops)}\n"
        f"[crash] start calls sent={sum(r.start_sends for r in rounds)} (replayed answers={sum(r.replayed for r in rounds)}), "
        f"interrupt calls sent={sum(r.interrupt_sends for r in rounds)}; settlements={sum(settlements.values())}\n"
        f"[crash] completion lag after ends_at: max={max(lags, default=0):.2f}s\n"
        f"[crash] connection drops: {s.agent.drops}\n"
        f"[crash] timeline:\n  " + "\n  ".join(s.timeline)
    )


@pytest.mark.spec("R-2.2.8", "R-4.2.7", "R-2.2.6")
def test_a_hello_refused_by_a_full_redis_can_be_sent_again(crash_rig, django_user_model):
    """A Redis that refuses writes (full: ``maxmemory`` with ``noeviction``) makes joining the channel
    groups fail, so ``hello`` is answered ``internal_error`` — which the protocol says may be retried.
    The retry must be handled as a hello: the connection was not authenticated by the failed one
    (it used to be, without a welcome or any delivery, and every retry got ``already_authenticated``:
    a connected Agent that never received its results). Once Redis takes writes again the retried
    hello is welcomed and the result waiting in the outbox arrives."""
    user = django_user_model.objects.create_user(username="full", password="pw-full-123")
    conversation_id = str(conversation_get_or_create_default(user=user).id)
    agent, token = create_agent_token(user=user, name="full-redis", now=timezone.now())
    hello = {"type": "hello", "token": token, "protocol": PROTOCOL}

    # A result that became final while no Agent was connected (started through the Tool Router here,
    # settled by the rig's beat sweep): no channel-layer message is waiting for anyone.
    conversation = Conversation.objects.get(pk=conversation_id)
    # Started for the Agent that connects below: the result is its own (the outbox entry's owner).
    caller = Caller(label=f"agent:{agent.id}", user_id=user.id, agent_id=agent.id)
    started = AgentDriver(caller=caller, conversation=conversation).start(1, now=timezone.now(), call_id="full-1")
    entry = wait_for(
        lambda: OutboxEntry.objects.filter(operation_id=started.operation_id).first(),
        timeout=15,
        what="the focus to settle",
        describe=crash_rig.describe,
    )

    redis = crash_rig.redis_client()
    redis.config_set("maxmemory-policy", "noeviction")
    redis.config_set("maxmemory", 1)  # every write that needs memory is refused: "OOM command not allowed"
    second = AgentSocket(crash_rig.agent_url)
    try:
        for _ in range(2):
            refused = second.request(hello)
            assert (refused["type"], refused["code"]) == ("error", "internal_error"), refused
        # (Any other frame now would be answered not_authenticated and end the connection: the first
        # frame must be a hello, and a hello the server failed may be sent again, as here.)
        redis.config_set("maxmemory", 0)
        assert second.request(hello)["type"] == "welcome"
        again = second.push("tool.result", timeout=5)
        assert again["outbox_id"] == str(entry.id)
        second.ack(again["outbox_id"], conversation_id)
    finally:
        second.close()
        redis.close()
    entry.refresh_from_db()
    assert entry.acked_at is not None
