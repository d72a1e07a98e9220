"""The Celery worker outlives a Redis restart, even while it holds an eta task it has not acked.

Celery 5.7 / kombu 5.7 closed the lost broker connection by restoring its unacked messages through
a client it had already released (``AttributeError: 'NoneType' object has no attribute
'hostname'``), an "Unrecoverable error" that ended the worker: every restart of Redis under a
worker holding a deadline took the deadline path down until a supervisor started it again.
``lineup.celery.ResilientConsumer`` lets that close fail; the worker reconnects (broker connection
retries are on, without a limit) and consumes again.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from runtime.models import LifecycleEvent, Operation
from runtime.services.agents import create_agent_token
from runtime.services.conversations import conversation_get_or_create_default
from runtime.transitions import OperationState
from tests.lineup.gateways.agent_socket.client import AgentSocket
from tests.support.processes import wait_for

pytestmark = [pytest.mark.celery, pytest.mark.postgres]

RECEIVED = re.compile(r"Task runtime\.tasks\.settle_operation\[[^\]]+\] received")
RESTARTS = 3


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
            lambda number=number: not worker.alive or worker.log_text().count("Connected to redis") > number + 1,
            timeout=30,
            what="the worker to reconnect (or exit)",
            describe=crash_rig.describe,
        )
        assert worker.alive, f"the worker exited after Redis restart {number + 1}\n{crash_rig.describe()}"
        socket = AgentSocket(crash_rig.agent_url)
        socket.hello(token)
        revision = socket.inventory(conversation_id)["revision"]
        stopped = socket.call(conversation_id, f"stop-{number}", "pomodoro.interrupt", {}, revision)
        assert stopped["type"] == "tool.receipt" and stopped["receipt"]["status"] == "interrupted", stopped
        socket.close()

    socket = AgentSocket(crash_rig.agent_url)
    socket.hello(token)
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
