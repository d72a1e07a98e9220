"""``capability.request`` on ``/ws/workspace/``: a Surface's ``requestCapability``, relayed by the host.

The frame names the instance the host bound the Surface to; the Capability Gateway decides
(declared AND provided; nothing is provided now) and records the decision (SPEC R-2.2.9, R-4.4.6).
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.utils import timezone

from runtime.models import LifecycleEvent
from runtime.services.lifecycle import close_instance, open_app
from tests.interact.test_consumers import in_memory_layer, open_page, session_cookie  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.spec("R-2.2.9", "R-4.4.6", "R-2.3.5")
def test_a_capability_request_is_decided_by_the_gateway_for_an_open_instance_only(user, conversation, other_user):
    """Undeclared -> denied not_declared (and recorded); a closed instance or another person's
    is refused; a frame with no name is invalid."""
    cookie = session_cookie("ada", "pw-ada-123")
    notes = open_app(conversation_id=conversation.id, app_id="notes", now=timezone.now())
    replies: dict[str, dict] = {}

    async def scenario() -> None:
        page = await open_page(cookie)
        base = {"conversation_id": str(conversation.id), "instance_id": str(notes.id)}
        replies["denied"] = await page.ask(
            "capability.request", request_id="c1", name="system.notifications", args={"title": "done"}, **base
        )
        replies["no_name"] = await page.ask("capability.request", request_id="c2", **base)
        await page.ws.disconnect()

    async_to_sync(scenario)()
    assert replies["denied"] == {
        "type": "ok",
        "frame": "capability.request",
        "request_id": "c1",
        "name": "system.notifications",
        "granted": False,
        "reason": "not_declared",
    }
    assert replies["no_name"]["type"] == "error" and replies["no_name"]["code"] == "invalid_frame"
    event = LifecycleEvent.objects.get(kind="capability.denied")
    assert (event.instance_id, event.data["reason"]) == (notes.id, "not_declared")

    close_instance(conversation_id=conversation.id, instance_id=notes.id, now=timezone.now())

    async def after_close() -> None:
        page = await open_page(cookie)
        replies["closed"] = await page.ask(
            "capability.request",
            request_id="c3",
            conversation_id=str(conversation.id),
            instance_id=str(notes.id),
            name="system.notifications",
        )
        await page.ws.disconnect()

    async_to_sync(after_close)()
    assert replies["closed"]["type"] == "error" and replies["closed"]["code"] == "instance_closed"
    assert LifecycleEvent.objects.filter(kind__startswith="capability.").count() == 1
