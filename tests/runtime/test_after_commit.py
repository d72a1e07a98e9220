"""What a decision hands on after commit leaves after the answer inside ``answer_first``, at commit
elsewhere, and outside an ASGI server over one long-lived channel-layer connection per process
(runtime/after_commit.py). On the suite's real Redis: channel layer and Celery broker."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from redis.asyncio.connection import Connection

from runtime.after_commit import answer_first
from runtime.deadlines import SETTLE_OPERATION_TASK, schedule_deadline_on_commit
from runtime.projections import conversation_group, project_on_commit
from tests.support.processes import purge_celery_queue, queued_celery_headers, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def _project(conversation_id: uuid.UUID, kind: str) -> None:
    with transaction.atomic():
        project_on_commit(conversation_id, kind, {})


async def _receive(layer, channel: str, timeout: float) -> dict | None:
    try:
        return await asyncio.wait_for(layer.receive(channel), timeout)
    except TimeoutError:
        return None


def test_inside_answer_first_a_hint_waits_for_the_end_of_the_block():
    conversation_id = uuid.uuid4()

    async def scenario() -> tuple[dict | None, dict | None]:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(conversation_group(conversation_id), channel)
        async with answer_first():
            await database_sync_to_async(_project)(conversation_id, "held")
            during = await _receive(layer, channel, 0.5)  # the answer would be sent here
        after = await _receive(layer, channel, 10)
        return during, after

    during, after = async_to_sync(scenario)()
    assert during is None
    assert after is not None and [e["kind"] for e in after["events"]] == ["held"]


def test_inside_answer_first_the_eta_task_is_published_after_the_block(settings):
    settings.LINEUP_SCHEDULER = "celery"
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    purge_celery_queue(queue)
    operation_id = uuid.uuid4()

    def queued() -> bool:
        return any(
            h["task"] == SETTLE_OPERATION_TASK and str(operation_id) in h["argsrepr"]
            for h in queued_celery_headers(queue)
        )

    def arm() -> None:
        with transaction.atomic():
            schedule_deadline_on_commit(operation_id, timezone.now() + timedelta(seconds=600))

    async def scenario() -> bool:
        async with answer_first():
            await database_sync_to_async(arm)()
            return await database_sync_to_async(queued)()

    try:
        assert async_to_sync(scenario)() is False
        wait_for(queued, timeout=10, what="the eta task on the broker after the block")
    finally:
        purge_celery_queue(queue)


def test_outside_answer_first_a_hint_leaves_at_commit():
    conversation_id = uuid.uuid4()
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(conversation_group(conversation_id), channel)
    _project(conversation_id, "now")  # sent (and waited for) inside the commit
    message = async_to_sync(_receive)(layer, channel, 0.5)
    assert message is not None and [e["kind"] for e in message["events"]] == ["now"]


@pytest.mark.skipif("channels_redis" not in settings.CHANNEL_LAYERS["default"]["BACKEND"], reason="needs Redis")
def test_outside_an_asgi_server_transactions_share_one_channel_layer_connection(monkeypatch):
    """Before: each transaction's hints started an event loop and opened a Redis connection (~5 ms)."""
    _project(uuid.uuid4(), "warm-up")  # the process's sending loop and its connection
    opened: list[object] = []
    real_connect = Connection._connect  # counted, not replaced: the connection is real

    async def counting_connect(self, *args, **kwargs):
        opened.append(self)
        return await real_connect(self, *args, **kwargs)

    monkeypatch.setattr(Connection, "_connect", counting_connect)
    for _ in range(20):
        _project(uuid.uuid4(), "decision")
    assert len(opened) == 0, f"{len(opened)} new Redis connections for 20 transactions"
