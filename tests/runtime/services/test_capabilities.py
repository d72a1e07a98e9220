"""The Capability Gateway decides every capability request; nothing is granted in this iteration."""

from __future__ import annotations

import pytest

from runtime.errors import Rejection, RejectionCode
from runtime.models import LifecycleEvent
from runtime.services.capabilities import request_capability
from runtime.services.lifecycle import close_instance
from tests.support.factories import T0, at


@pytest.mark.django_db
@pytest.mark.spec("R-2.2.9", "R-4.4.6", "R-2.3.5")
def test_pomodoro_asking_for_notifications_is_denied_and_recorded(agent, conversation):
    """Pomodoro declares no capability: a notification request is denied ``not_declared``."""
    started = agent.start(60, now=T0)
    decision = request_capability(
        conversation_id=conversation.id, instance_id=started.instance_id, name="notification.show", now=at(1)
    )
    assert (decision.granted, decision.reason) == (False, "not_declared")
    event = LifecycleEvent.objects.get(kind="capability.denied")
    assert event.instance_id == started.instance_id
    assert event.data == {"capability": "notification.show", "reason": "not_declared", "app_id": "pomodoro"}


@pytest.mark.django_db
@pytest.mark.spec("R-2.2.9")
def test_a_declared_capability_the_runtime_does_not_provide_is_denied(agent, conversation, monkeypatch):
    """Declaring is not enough: the Runtime must also provide it (none is provided now)."""
    from runtime import manifests

    started = agent.start(60, now=T0)
    pomodoro = manifests.get_manifest("pomodoro")
    monkeypatch.setitem(
        manifests.registry(),
        "pomodoro",
        type(pomodoro)(**{**pomodoro.__dict__, "capabilities": ("notification.show",)}),
    )
    decision = request_capability(
        conversation_id=conversation.id, instance_id=started.instance_id, name="notification.show", now=at(1)
    )
    assert (decision.granted, decision.reason) == (False, "not_provided")


@pytest.mark.django_db
def test_closed_or_foreign_instances_can_not_ask(agent, conversation, other_user):
    from runtime.services.conversations import conversation_get_or_create_default

    started = agent.start(60, now=T0)
    foreign = conversation_get_or_create_default(user=other_user)
    with pytest.raises(Rejection) as foreign_error:
        request_capability(conversation_id=foreign.id, instance_id=started.instance_id, name="x", now=at(1))
    assert foreign_error.value.code == RejectionCode.UNKNOWN_INSTANCE

    close_instance(conversation_id=conversation.id, instance_id=started.instance_id, now=at(2))
    with pytest.raises(Rejection) as closed_error:
        request_capability(conversation_id=conversation.id, instance_id=started.instance_id, name="x", now=at(3))
    assert closed_error.value.code == RejectionCode.INSTANCE_CLOSED
    assert not LifecycleEvent.objects.filter(kind__startswith="capability.").exists()
