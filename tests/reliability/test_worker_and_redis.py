"""The Celery worker outlives a Redis restart, even while it holds tasks it has not acked.

With kombu 5.7 two things touched a channel of the lost connection after Celery had closed it and
raised ``AttributeError: 'NoneType' object has no attribute 'hostname'``, an "Unrecoverable error"
that ended the worker: the close itself (it restores the unacked messages: every eta task the
worker reserved) and the ack of a task that ran during the restart. Every restart of Redis under a
busy worker took the deadline path down until a supervisor started the worker again (the soak found
the second path after the first was fixed). ``lineup.celery.RedisTransport`` makes both a
connection error, which Celery handles; the worker reconnects (broker connection retries are on,
without a limit) and consumes again.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from lineup.gateways.agent_socket.frames import PROTOCOL
from runtime.models import LifecycleEvent, Operation
from runtime.services.agents import create_agent_token
from runtime.services.conversations import conversation_get_or_create_default
from runtime.transitions import OperationState
from tests.lineup.gateways.agent_socket.client import AgentSocket
from tests.support.processes import WORKER_READY, celery_worker_argv, wait_for

pytestmark = [pytest.mark.celery, pytest.mark.postgres]

RECEIVED = re.compile(r"Task runtime\.tasks\.settle_operation\[[^\]]+\] received")
RESTARTS = 3


def _welcomed(url: str, token: str) -> AgentSocket:
    """A welcomed connection; right after a Redis restart a hello may be answered ``internal_error``
    (the server's channel layer reconnects on first use), which the protocol says to retry."""

    def attempt() -> AgentSocket | None:
        try:
            socket = AgentSocket(url)
            welcome = socket.request({"type": "hello", "token": token, "protocol": PROTOCOL}, timeout=5)
        except (OSError, AssertionError):  # refused, closed, or no answer: try again
            return None
        if welcome["type"] == "welcome":
            return socket
        socket.close()
        return None

    return wait_for(attempt, timeout=15, interval=0.2, what="a welcome")


@pytest.mark.spec("R-4.4.3")
def test_the_worker_survives_redis_restarts_while_it_holds_an_eta_task(crash_rig, django_user_model):
    """Three Redis restarts, each while the worker holds the eta task of a running focus: the worker
    process is the same one afterwards (it never exited, nothing started it again), and with the
    beat stopped a new 1-second focus is settled by its eta task on that worker."""
    user = django_user_model.objects.create_user(username="broker", password="pw-broker-123")
    conversation_id = str(conversation_get_or_create_default(user=user).id)
    _, token = create_agent_token(user=user, name="broker-agent", now=timezone.now())
    crash_rig.kill("beat")  # from here on only the worker's eta tasks settle anything
    worker = crash_rig.current["worker"]

    for number in range(RESTARTS):
        socket = AgentSocket(crash_rig.agent_url)
        socket.hello(token)
        accepted = socket.start(conversation_id, f"long-{number}", 60)
        assert accepted["type"] == "tool.accepted", accepted
        wait_for(
            lambda number=number: len(RECEIVED.findall(worker.log_text())) > number,
            timeout=15,
            what="the worker to reserve the eta task",
            describe=crash_rig.describe,
        )
        socket.close()
        crash_rig.kill("redis")
        crash_rig.start("redis")
        crash_rig.wait_ready("redis")
        wait_for(
            lambda number=number: not worker.alive or worker.log_text().count("Connected to ") > number + 1,
            timeout=30,
            what="the worker to reconnect (or exit)",
            describe=crash_rig.describe,
        )
        assert worker.alive, f"the worker exited after Redis restart {number + 1}\n{crash_rig.describe()}"
        socket = _welcomed(crash_rig.agent_url, token)
        revision = socket.inventory(conversation_id)["revision"]
        stopped = socket.call(conversation_id, f"stop-{number}", "pomodoro.interrupt", {}, revision)
        assert stopped["type"] == "tool.receipt" and stopped["receipt"]["status"] == "interrupted", stopped
        socket.close()

    socket = _welcomed(crash_rig.agent_url, token)
    short = socket.start(conversation_id, "short", 1)
    assert short["type"] == "tool.accepted", short
    socket.close()
    wait_for(
        lambda: Operation.objects.filter(pk=short["operation_id"], state=OperationState.COMPLETED).exists(),
        timeout=30,
        what="the 1-second focus to be settled by its eta task",
        describe=crash_rig.describe,
    )
    assert LifecycleEvent.objects.filter(operation_id=short["operation_id"], kind="operation.completed").count() == 1
    assert worker.alive and crash_rig.current["worker"] is worker, crash_rig.describe()
    assert "Unrecoverable error" not in worker.log_text(), crash_rig.describe()


@pytest.mark.spec("R-4.4.3")
def test_the_worker_survives_a_redis_restart_while_a_task_runs(crash_rig):
    """A task that runs across a Redis restart is acked (late) after it: the ack finds its channel's
    connection closed. The worker goes on and runs the next task, the same process."""
    from lineup.celery import app

    queue = crash_rig.env["LINEUP_CELERY_QUEUE"]
    crash_rig.kill("worker")
    argv = [*celery_worker_argv(queue=queue, node="slow@%h"), "--include", "tests.reliability.slow_tasks"]
    worker = crash_rig.processes.start("worker-slow", argv, env=crash_rig.env)
    worker.wait_for_log(WORKER_READY)

    def send(seconds: float, marker: str) -> None:
        with app.connection_for_write(f"redis://127.0.0.1:{crash_rig.redis_port}/0") as connection:
            app.send_task(
                "tests.reliability.slow_tasks.pause", args=[seconds, marker], queue=queue, connection=connection
            )

    send(3, "across-the-restart")
    worker.wait_for_log(r"tests\.reliability\.slow_tasks\.pause\[[^\]]+\] received")
    crash_rig.kill("redis")
    crash_rig.start("redis")
    crash_rig.wait_ready("redis")
    worker.wait_for_log("across-the-restart", timeout=20)  # it returned; its ack went to the old channel
    wait_for(
        lambda: not worker.alive or worker.log_text().count("Connected to ") >= 2,
        timeout=30,
        what="the worker to reconnect (or exit)",
        describe=crash_rig.describe,
    )
    assert worker.alive, f"the worker exited after the restart\n{crash_rig.describe()}"
    send(0, "after-the-restart")
    worker.wait_for_log("after-the-restart", timeout=20)
    assert worker.alive and "Unrecoverable error" not in worker.log_text(), crash_rig.describe()
