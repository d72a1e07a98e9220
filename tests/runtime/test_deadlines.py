"""Deadlines on real Celery processes: eta tasks, the beat sweep, restart and recovery (SPEC §4.4).

A real worker (and, where the test needs it, the one beat) runs as a subprocess on Redis against
pytest-django's test database; this process starts focuses through the Tool Router with the real
clock, so the worker sees committed rows and real time passes. Waits poll the database (or a
process log) with a deadline; the only sleeps are waits for real time to pass a deadline.
"""

from __future__ import annotations

import io
import json
import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from runtime.clock import isoformat
from runtime.models import AppInstance, LifecycleEvent, Operation, OutboxEntry
from runtime.tasks import settle_operation_task
from runtime.tool_calls import Accepted
from runtime.transitions import LifecycleState, OperationState
from tests.support.processes import (
    BEAT_READY,
    WORKER_READY,
    ManagedProcess,
    ProcessSupervisor,
    lineup_env,
    manage_py_argv,
    purge_celery_queue,
    queued_celery_headers,
    start_celery_beat,
    start_celery_worker,
    supervised_processes,
    wait_for,
)

pytestmark = [pytest.mark.celery, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SWEEP_SECONDS = "0.5"
MAX_LAG = timedelta(seconds=1.5)  # eta timer + task hand-off (+ one sweep period) on a busy machine
SETTLE_TIMEOUT = 15.0
ETA_RECEIVED = re.compile(r"Task runtime\.tasks\.settle_operation\[[0-9a-f-]+\] received")
ETA_SUCCEEDED = re.compile(r"Task runtime\.tasks\.settle_operation\[[0-9a-f-]+\] succeeded")
SWEEP_SUCCEEDED = re.compile(r"Task runtime\.tasks\.sweep_due\[[0-9a-f-]+\] succeeded")


@dataclass
class CeleryRig:
    """Worker / beat / ``manage.py`` processes sharing this test's database, Redis and queue."""

    processes: ProcessSupervisor
    env: dict[str, str]

    def worker(self, name: str = "worker", *, wait: bool = True) -> ManagedProcess:
        return start_celery_worker(self.processes, env=self.env, name=name, wait=wait)

    def beat(self, name: str = "beat", *, wait: bool = True) -> ManagedProcess:
        return start_celery_beat(self.processes, env=self.env, name=name, wait=wait)

    def recover_runtime(self, *args: str, name: str = "recover_runtime") -> str:
        return self.processes.run(name, manage_py_argv("recover_runtime", *args), env=self.env)

    def wait_settled(self, operation_id: uuid.UUID, *, timeout: float = SETTLE_TIMEOUT) -> Operation:
        return wait_for(
            lambda: Operation.objects.filter(pk=operation_id).exclude(state=OperationState.RUNNING).first(),
            timeout=timeout,
            what=f"operation {operation_id} to settle",
            describe=self.processes.describe,
        )


@pytest.fixture
def rig(request, tmp_path, django_db_setup, settings) -> Iterator[CeleryRig]:
    """Processes for one test; the queue is emptied before and after so no task outlives it."""
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    purge_celery_queue(queue)
    with supervised_processes(request, tmp_path) as processes:
        yield CeleryRig(processes=processes, env=lineup_env(LINEUP_SWEEP_SECONDS=SWEEP_SECONDS))
    purge_celery_queue(queue)


def _start(agent, seconds: int) -> tuple[Accepted, Operation]:
    started = agent.start(seconds, now=timezone.now())
    assert isinstance(started, Accepted), started
    return started, Operation.objects.get(pk=started.operation_id)


def _sleep_until(moment: datetime) -> None:
    """Let real time pass ``moment`` (the subject of the test, not a stand-in for synchronisation)."""
    time.sleep(max(0.0, (moment - timezone.now()).total_seconds()))


def _settlement_events(operation_id: uuid.UUID) -> list[LifecycleEvent]:
    return list(
        LifecycleEvent.objects.filter(
            operation_id=operation_id, kind__in=("operation.completed", "operation.interrupted")
        )
    )


def _assert_completed_once(operation: Operation, *, ends_at: datetime) -> OutboxEntry:
    """``completed`` at exactly the persisted ``ends_at``, one settlement, one outbox entry whose
    result is the start's result; Pomodoro closed and Interact back in front (R-4.2.4)."""
    assert operation.state == OperationState.COMPLETED
    assert operation.ends_at == ends_at
    assert operation.ended_at == ends_at
    [event] = _settlement_events(operation.id)
    assert event.kind == "operation.completed"
    assert event.data["trigger"] == "deadline"
    [entry] = OutboxEntry.objects.filter(operation=operation)
    operation.tool_call.refresh_from_db()
    assert operation.tool_call.result == entry.payload["result"]
    assert entry.payload["result"]["ended_at"] == isoformat(ends_at)
    instance = AppInstance.objects.get(pk=operation.instance_id)
    assert instance.lifecycle_state == LifecycleState.CLOSED
    front = AppInstance.objects.get(
        conversation_id=operation.conversation_id, lifecycle_state=LifecycleState.FOREGROUND
    )
    assert front.is_system
    return entry


@pytest.mark.spec("R-2.2.5", "R-4.2.3")
def test_eta_task_settles_a_focus_at_its_ends_at(rig, agent, settings):
    """A 2-second focus started through the Tool Router is settled by its eta task on a real worker
    (no beat runs): ``completed`` at ``ends_at``, within moments of it, with one outbox entry."""
    settings.LINEUP_SCHEDULER = "celery"
    worker = rig.worker()

    started, operation = _start(agent, 2)
    settled = rig.wait_settled(started.operation_id)

    _assert_completed_once(settled, ends_at=operation.ends_at)
    lag = settled.settled_at - settled.ends_at
    assert timedelta(0) <= lag < MAX_LAG, lag
    # The worker's eta task did it: it ran (its log line follows the commit), and no sweep exists here.
    worker.wait_for_log(ETA_SUCCEEDED, timeout=5.0)
    assert not SWEEP_SUCCEEDED.search(worker.log_text())


@pytest.mark.spec("R-2.2.5", "R-3.7")
def test_duplicate_eta_deliveries_settle_nothing_twice(rig, agent, settings):
    """The eta task delivered six times (the scheduled one and five duplicates) settles the
    operation once: one terminal state, one ``operation.completed``, one outbox entry; the other
    deliveries only find it already final."""
    settings.LINEUP_SCHEDULER = "celery"
    rig.worker()

    _, operation = _start(agent, 2)
    for _ in range(5):
        settle_operation_task.apply_async(args=[str(operation.id)], eta=operation.ends_at)

    def deadline_decisions() -> int | None:
        kinds = LifecycleEvent.objects.filter(
            operation_id=operation.id, kind__in=("operation.completed", "operation.already_final")
        )
        count = kinds.count()
        return count if count >= 6 else None

    assert wait_for(deadline_decisions, timeout=SETTLE_TIMEOUT, what="6 deliveries", describe=rig.processes.describe)
    settled = Operation.objects.get(pk=operation.id)
    _assert_completed_once(settled, ends_at=operation.ends_at)
    already_final = LifecycleEvent.objects.filter(operation_id=operation.id, kind="operation.already_final")
    assert already_final.count() == 5
    assert {e.data["trigger"] for e in already_final} == {"deadline"}
    assert Operation.objects.filter(conversation_id=operation.conversation_id).count() == 1


@pytest.mark.spec("R-2.2.5", "R-4.4.3")
def test_beat_sweep_settles_a_focus_whose_eta_task_was_never_sent(rig, agent, settings):
    """The crash window between commit and enqueue: a focus whose eta task never reached the
    broker is settled by the beat sweep, ``completed`` at its ``ends_at`` within a sweep period."""
    settings.LINEUP_SCHEDULER = "none"  # the start commits, and no eta task is ever enqueued
    worker, beat = rig.worker(wait=False), rig.beat(wait=False)
    worker.wait_for_log(WORKER_READY)
    beat.wait_for_log(BEAT_READY)

    started, operation = _start(agent, 1)
    settled = rig.wait_settled(started.operation_id)

    _assert_completed_once(settled, ends_at=operation.ends_at)
    assert settled.settled_at - settled.ends_at < MAX_LAG
    worker.wait_for_log(SWEEP_SUCCEEDED, timeout=5.0)
    assert not ETA_RECEIVED.search(worker.log_text()), "no eta task may exist in this test"


@pytest.mark.spec("R-4.4.1", "R-4.4.2", "R-2.2.6")
def test_a_focus_running_across_a_worker_crash_ends_at_its_original_ends_at(rig, agent, settings):
    """SIGKILL the worker one second into a 5-second focus (its eta task dies with it). Recovery
    finds the focus not due and recomputes what remains from the persisted ``ends_at``; once a new
    worker and beat run, the focus completes at that original ``ends_at`` — the full duration is
    never restarted."""
    settings.LINEUP_SCHEDULER = "celery"
    first = rig.worker("worker-1")
    _, operation = _start(agent, 5)
    first.wait_for_log(ETA_RECEIVED)  # the eta task sits, unacked, in this worker's memory

    _sleep_until(operation.started_at + timedelta(seconds=1))
    first.kill()
    killed_at = timezone.now()
    assert Operation.objects.get(pk=operation.id).state == OperationState.RUNNING

    respawned_at = timezone.now()
    second, beat = rig.worker("worker-2", wait=False), rig.beat(wait=False)
    # Recovery runs in this process (a subprocess would compete with the restarting worker for
    # the CPU and might only finish after ends_at); it re-arms the eta task for worker-2.
    out = io.StringIO()
    call_command("recover_runtime", "--json", stdout=out)
    summary = json.loads(out.getvalue())
    assert summary["settled"] == 0 and summary["due"] == 0, summary
    [resumed] = [r for r in summary["resumed"] if r["operation_id"] == str(operation.id)]
    assert resumed["ends_at"] == isoformat(operation.ends_at)
    # What remains is the rest of the original duration, not a fresh 5 seconds.
    assert 0 < resumed["remaining_seconds"] <= (operation.ends_at - killed_at).total_seconds()
    assert AppInstance.objects.get(pk=operation.instance_id).restored_at is not None
    second.wait_for_log(WORKER_READY)
    # Seen ready here, so ready by now (the log is polled): a bound from above, never from below. The
    # eta task may run before this line under load, so the lower bound is when worker-2 was spawned.
    worker_ready_by = timezone.now()
    beat.wait_for_log(BEAT_READY)

    settled = rig.wait_settled(operation.id)
    _assert_completed_once(settled, ends_at=operation.ends_at)
    # Never early: not before ends_at, and only by the processes started after the crash.
    assert settled.settled_at >= max(operation.ends_at, respawned_at), (settled.settled_at, respawned_at)
    # Settled as soon as it was both due and had a worker. That it was never restarted is the ended_at
    # above (a restart would end a full duration after the recovery); a wall-clock bound from the kill
    # would instead measure how long a loaded machine takes to start worker-2.
    assert settled.settled_at - max(operation.ends_at, worker_ready_by) < MAX_LAG


@pytest.mark.spec("R-4.4.1", "R-4.4.3", "R-2.2.5")
def test_recover_runtime_settles_a_focus_that_fell_due_while_no_worker_ran(rig, agent, settings):
    """The worker is SIGKILLed with a 2-second focus running, and ``ends_at`` passes with nothing
    running: nothing settles it. ``recover_runtime --dry-run`` reports it and changes nothing;
    ``recover_runtime`` settles it once (``completed`` at ``ends_at``, one outbox entry); running
    it again settles 0."""
    settings.LINEUP_SCHEDULER = "celery"
    worker = rig.worker()
    _, operation = _start(agent, 2)
    worker.wait_for_log(ETA_RECEIVED)
    worker.kill()

    _sleep_until(operation.ends_at + timedelta(milliseconds=300))
    assert Operation.objects.get(pk=operation.id).state == OperationState.RUNNING
    assert not OutboxEntry.objects.exists()

    dry = json.loads(rig.recover_runtime("--json", "--dry-run", name="recover-dry-run"))
    assert dry["dry_run"] is True
    assert dry["due"] == 1 and dry["due_ids"] == [str(operation.id)], dry
    assert dry["settled"] == 0 and dry["settled_ids"] == []
    assert Operation.objects.get(pk=operation.id).state == OperationState.RUNNING
    assert not OutboxEntry.objects.exists()
    assert not LifecycleEvent.objects.filter(kind="recovery.ran").exists()

    summary = json.loads(rig.recover_runtime("--json", name="recover-1"))
    assert summary["dry_run"] is False
    assert summary["settled"] == 1 and summary["settled_ids"] == [str(operation.id)], summary
    _assert_completed_once(Operation.objects.get(pk=operation.id), ends_at=operation.ends_at)

    again = rig.recover_runtime(name="recover-2")
    assert re.search(r"^settled 0 due operation", again, re.MULTILINE), again
    assert OutboxEntry.objects.filter(operation_id=operation.id).count() == 1
    assert len(_settlement_events(operation.id)) == 1


@pytest.mark.spec("R-4.2.3")
def test_an_early_eta_delivery_re_arms_itself_and_a_stale_task_is_dropped(rig, agent, settings):
    """An eta task delivered before ``ends_at`` (a timer firing early, another host's clock)
    settles nothing and sends itself again for ``ends_at``; a task whose operation no longer
    exists (it outlived its database) is dropped without an error."""
    settings.LINEUP_SCHEDULER = "none"  # only the early delivery below may enqueue anything
    _, operation = _start(agent, 60)

    assert settle_operation_task(str(operation.id)) == "NotDue"  # runs the task body here, now

    assert Operation.objects.get(pk=operation.id).state == OperationState.RUNNING
    [headers] = queued_celery_headers(settings.CELERY_TASK_DEFAULT_QUEUE)
    assert headers["task"] == "runtime.tasks.settle_operation"
    assert str(operation.id) in headers["argsrepr"]
    assert datetime.fromisoformat(headers["eta"]) == operation.ends_at
    assert settle_operation_task(str(uuid.uuid4())) == "UnknownOperation"
    assert not OutboxEntry.objects.exists()


@pytest.mark.spec("R-4.2.3")
def test_the_eta_task_skips_the_health_check_and_settles_on_a_new_connection_when_its_own_died(
    agent, settings, monkeypatch
):
    """The worker keeps its connection (decision 0039) without a ``SELECT 1`` before each task: the
    settlement's first statement is the check. When PostgreSQL ended the kept connection (a
    restart), the task settles on a new one, once, with no failure counted."""
    from django.db import close_old_connections, connection, connections

    settings.LINEUP_SCHEDULER = "none"
    _, operation = _start(agent, 1)
    _sleep_until(operation.ends_at)
    checks = []
    wrapper = type(connections["default"])
    is_usable = wrapper.is_usable
    monkeypatch.setattr(wrapper, "is_usable", lambda self: checks.append(1) or is_usable(self))
    close_old_connections()  # what the worker does before each task (lineup.celery)
    assert connection.connection is not None
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [connection.connection.info.backend_pid])
    finally:
        other.close()

    assert settle_operation_task(str(operation.id)) == "Settle"

    assert checks == []
    operation.refresh_from_db()
    _assert_completed_once(operation, ends_at=operation.ends_at)
    assert operation.settle_failures == 0
