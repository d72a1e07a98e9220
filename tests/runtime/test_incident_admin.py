"""The operator's incident actions (runtime.admin.incident): interrupt running operations with a
typed reason from the Operation, Conversation and User lists, and retry the flagged ones.

Rows are built through the real Tool Router and services; pages are posted with Django's test
client against real PostgreSQL, the way an operator's browser would post them.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from prometheus_client import REGISTRY

from interact.models import LanguagePreference
from runtime.models import Conversation, LifecycleEvent, Operation, OutboxEntry, ToolCall
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.interrupts import interrupt_for_operator
from runtime.services.settlements import settle_operation
from runtime.tool_calls import Accepted
from runtime.tool_router import Caller
from runtime.transitions import OperationState, Trigger
from tests.support.factories import AgentDriver

pytestmark = pytest.mark.django_db

ACTION = "interrupt_running_operations"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def changelist(model: type) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def message_texts(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def post_action(client: Client, model: type, pks: list, action: str = ACTION, **form: str):
    data = {"action": action, "_selected_action": [str(pk) for pk in pks], **form}
    if "post" not in form:  # the changelist's form says which action form it is; the confirmation page does not
        data["index"] = "0"
    return client.post(changelist(model), data, follow=True)


def running(agent: AgentDriver, seconds: int = 600, *, ago: int = 5) -> Operation:
    started = agent.start(seconds, "deep work", now=timezone.now() - timedelta(seconds=ago))
    assert isinstance(started, Accepted)
    return Operation.objects.get(pk=started.operation_id)


def other_agent_of(user) -> AgentDriver:
    conversation = conversation_get_or_create_default(user=user)
    return AgentDriver(caller=Caller(label=f"agent:{user.username}", user_id=user.id), conversation=conversation)


def assert_interrupted_by_operator(operation: Operation, *, operator: str, reason: str) -> None:
    """One terminal state, one result for its Agent saying "operator", and who/why in the event log."""
    operation.refresh_from_db()
    assert operation.state == OperationState.INTERRUPTED
    assert operation.interruption_reason == "operator"
    result = ToolCall.objects.get(pk=operation.tool_call_id).result
    assert result["state"] == "interrupted" and result["interruption_reason"] == "operator"
    [entry] = OutboxEntry.objects.filter(operation=operation)
    assert entry.payload["result"] == result
    [settled] = LifecycleEvent.objects.filter(operation_id=operation.pk, kind="operation.interrupted")
    assert settled.data["trigger"] == "operator"
    [audit] = LifecycleEvent.objects.filter(operation_id=operation.pk, kind="operator.interrupt")
    assert audit.data == {"operator": operator, "reason": reason, "status": "interrupted"}


@pytest.mark.spec("R-2.2.5", "R-3.7")
def test_interrupt_from_the_operation_list_asks_for_a_reason_first_and_refuses_without_one(
    admin_client: Client, admin_user, agent: AgentDriver, other_user
):
    """Selecting rows shows the confirmation page with only the running ones; posting it without a
    reason (or only spaces) shows it again with an error and changes nothing; with a reason each
    running one is interrupted once, and a final one in the selection is left alone."""
    final = running(agent, 30, ago=300)
    assert settle_operation(operation_id=final.pk, trigger=Trigger.DEADLINE, now=timezone.now()).settled
    focus = running(agent)
    other = running(other_agent_of(other_user))

    page = post_action(admin_client, Operation, [final.pk, focus.pk, other.pk])
    assert page.status_code == 200
    assert page.templates[0].name == "admin/runtime/interrupt_confirmation.html"
    body = page.content.decode()
    assert str(focus.pk) in body and str(other.pk) in body and 'name="reason"' in body
    assert f"/{final.pk}/change/" not in body  # listed operations are the running ones only
    assert Operation.objects.filter(state=OperationState.RUNNING).count() == 2

    for blank in ("", "   "):
        refused = post_action(admin_client, Operation, [focus.pk], post="yes", reason=blank)
        assert refused.templates[0].name == "admin/runtime/interrupt_confirmation.html"
        assert "errornote" in refused.content.decode()
        assert not message_texts(refused)
    assert Operation.objects.filter(state=OperationState.RUNNING).count() == 2
    assert not LifecycleEvent.objects.filter(kind__in=["operator.interrupt", "operation.interrupted"]).exists()

    reason = "Redis outage: ending focuses so Agents stop waiting"
    selection = [final.pk, focus.pk, other.pk]
    response = post_action(admin_client, Operation, selection, post="yes", reason=f"  {reason} ")
    assert response.redirect_chain == [(changelist(Operation), 302)]  # back to the list, as after any action
    assert "Interrupted 2 running operations; 0 had reached their end time (completed); 0 already final." in (
        message_texts(response)
    )
    for operation in (focus, other):
        assert_interrupted_by_operator(operation, operator=admin_user.username, reason=reason)
    # The runbook's way to find them: the event log filtered by kind.
    audit = admin_client.get(reverse("admin:runtime_lifecycleevent_changelist"), {"kind": "operator.interrupt"})
    assert {event.operation_id for event in audit.context["cl"].result_list} == {focus.pk, other.pk}

    again = post_action(admin_client, Operation, [focus.pk])
    assert "interrupt-nothing" in again.content.decode()  # nothing running in the selection any more
    replayed = post_action(admin_client, Operation, [focus.pk], post="yes", reason=reason)  # a re-sent form
    assert "Interrupted 0 running operations; 0 had reached their end time (completed); 0 already final." in (
        message_texts(replayed)
    )
    assert OutboxEntry.objects.count() == 3  # the final one's and the two interrupted: none twice


@pytest.mark.spec("R-2.2.5")
def test_interrupt_from_the_conversation_and_user_lists_ends_their_running_operations_only(
    admin_client: Client,
    admin_user,
    agent: AgentDriver,
    conversation: Conversation,
    user,
    other_user,
    django_user_model,
):
    """A conversation stands for its running operations, a user for those of their conversations;
    somebody else's focus is untouched."""
    mine = running(agent)
    bobs = running(other_agent_of(other_user))
    carol = django_user_model.objects.create_user(username="carol", password="pw-carol-123")
    carols = running(other_agent_of(carol))

    page = post_action(admin_client, Conversation, [conversation.pk])
    assert str(mine.pk) in page.content.decode() and str(bobs.pk) not in page.content.decode()
    response = post_action(admin_client, Conversation, [conversation.pk], post="yes", reason="stuck conversation")
    assert "Interrupted 1 running operation;" in message_texts(response)[0]
    assert_interrupted_by_operator(mine, operator=admin_user.username, reason="stuck conversation")

    user_list = changelist(django_user_model)
    page = admin_client.post(user_list, {"action": ACTION, "_selected_action": [str(other_user.pk)], "index": 0})
    assert page.status_code == 200 and str(bobs.pk) in page.content.decode()
    response = post_action(admin_client, django_user_model, [other_user.pk], post="yes", reason="abuse report 42")
    assert "Interrupted 1 running operation;" in message_texts(response)[0]
    assert_interrupted_by_operator(bobs, operator=admin_user.username, reason="abuse report 42")
    carols.refresh_from_db()
    assert carols.state == OperationState.RUNNING


@pytest.mark.spec("R-3.9", "R-2.2.5")
def test_an_operator_interrupt_after_the_end_time_settles_completed_and_a_final_one_is_left_alone(
    agent: AgentDriver,
):
    """The one settlement rule: past ``ends_at`` an interrupt (the operator's too) settles completed."""
    late = running(agent, 60, ago=120)
    outcome = interrupt_for_operator(operation_id=late.pk, operator="ops", reason="late", now=timezone.now())
    assert outcome.settled and outcome.decision.state == OperationState.COMPLETED
    again = interrupt_for_operator(operation_id=late.pk, operator="ops", reason="again", now=timezone.now())
    assert not again.settled
    statuses = list(
        LifecycleEvent.objects.filter(kind="operator.interrupt").order_by("id").values_list("data__status", flat=True)
    )
    assert statuses == ["completed", "already_final"]
    assert OutboxEntry.objects.filter(operation_id=late.pk).count() == 1
    with pytest.raises(ValueError, match="reason"):
        interrupt_for_operator(operation_id=late.pk, operator="ops", reason="  ", now=timezone.now())


@pytest.mark.spec("R-2.2.3")
def test_the_incident_actions_need_their_permissions(client: Client, django_user_model, agent: AgentDriver):
    """Viewing is not enough: the interrupt needs runtime.interrupt_operations (on each list), the
    retry runtime.settle_operations; a posted action without them changes nothing."""
    focus = running(agent)
    staff = django_user_model.objects.create_user("clerk", password="pw-clerk-123", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    client.force_login(staff)

    def offered(model: type) -> set[str]:
        form = client.get(changelist(model)).context["action_form"]
        return set() if form is None else {name for name, _label in form.fields["action"].choices}

    for model in (Operation, Conversation, django_user_model):
        assert ACTION not in offered(model)
    assert "retry_flagged_operations" not in offered(Operation)
    post_action(client, Operation, [focus.pk], post="yes", reason="no right to")
    focus.refresh_from_db()
    assert focus.state == OperationState.RUNNING

    staff.user_permissions.add(
        Permission.objects.get(content_type__app_label="runtime", codename="interrupt_operations")
    )
    for model in (Operation, Conversation, django_user_model):
        assert ACTION in offered(model)
    post_action(client, Operation, [focus.pk], post="yes", reason="now I may")
    assert_interrupted_by_operator(focus, operator="clerk", reason="now I may")


@pytest.mark.spec("R-4.4.1", "R-2.2.5")
def test_retry_flagged_settles_the_selected_flagged_ones_with_a_count_and_an_event(
    admin_client: Client, admin_user, agent: AgentDriver, other_user
):
    """Only flagged focusing rows of the selection are retried (each through the sweep's isolated
    settlement), the message counts them, and the event log names who asked."""
    flagged = running(agent, 60, ago=600)
    now = timezone.now()
    Operation.objects.filter(pk=flagged.pk).update(
        settle_failures=5, settle_flagged_at=now, next_settle_attempt_at=now, last_settle_error="RuntimeError: boom"
    )
    not_flagged = running(other_agent_of(other_user))

    response = post_action(admin_client, Operation, [flagged.pk, not_flagged.pk], action="retry_flagged_operations")
    assert (
        "Retried 1 flagged operation: 1 settled, 0 failed again, 0 not due, 0 already final; 1 not flagged, left alone."
        in message_texts(response)
    )
    flagged.refresh_from_db()
    assert flagged.state == OperationState.COMPLETED and flagged.ended_at == flagged.ends_at
    assert OutboxEntry.objects.filter(operation=flagged).count() == 1
    [asked] = LifecycleEvent.objects.filter(kind="operator.retry")
    assert asked.operation_id == flagged.pk and asked.data == {"operator": admin_user.username, "failures": 5}
    assert Operation.objects.get(pk=not_flagged.pk).state == OperationState.RUNNING


@pytest.mark.spec("R-2.2.5")
def test_operator_interrupts_are_counted_as_decisions_and_settlements_by_trigger(
    agent: AgentDriver, django_capture_on_commit_callbacks
):
    """/metrics: the audit entry is a decision kind of its own, the settlement counted under the
    trigger ``operator`` (bounded labels: no username, no reason)."""

    def value(name: str, **labels: str) -> float:
        return REGISTRY.get_sample_value(name, labels) or 0.0

    before_decisions = value("lineup_decisions_total", kind="operator.interrupt", outcome="interrupted")
    before_settled = value("lineup_settlements_total", state="interrupted", trigger="operator", path="operator")
    focus = running(agent)
    with django_capture_on_commit_callbacks(execute=True):
        interrupt_for_operator(operation_id=focus.pk, operator="ops", reason="metrics", now=timezone.now())
    assert value("lineup_decisions_total", kind="operator.interrupt", outcome="interrupted") == before_decisions + 1
    assert (
        value("lineup_settlements_total", state="interrupted", trigger="operator", path="operator")
        == before_settled + 1
    )


@pytest.mark.spec("R-4.1.1")
def test_the_incident_actions_and_page_speak_chinese_to_a_staff_user_who_chose_it(
    admin_client: Client, admin_user, agent: AgentDriver
):
    focus = running(agent)
    LanguagePreference.objects.create(user=admin_user, language="zh-hans")
    listing = admin_client.get(changelist(Operation)).content.decode()
    assert "中断运行中的操作（需填写原因）…" in listing  # noqa: RUF001 -- full-width on purpose and "立即重试已标记的操作" in listing
    assert "Interrupt running operations" not in listing
    page = post_action(admin_client, Operation, [focus.pk]).content.decode()
    assert "原因" in page and "全部中断" in page and "Interrupt them" not in page
    response = post_action(admin_client, Operation, [focus.pk], post="yes", reason="演练")
    assert "已中断 1 个运行中的操作" in message_texts(response)[0]


def test_the_zh_operation_page_says_who_ended_it_how_and_why_and_search_finds_the_user_name(
    admin_client: Client, admin_user, agent: AgentDriver, user, other_user
):
    """Issue 40: an operator finds a person's operations by their user name, and the operation's
    page says, in Chinese, which operator interrupted it and the reason they gave; the object title
    is Chinese too (not "operation … (interrupted)")."""
    LanguagePreference.objects.create(user=admin_user, language="zh-hans")
    mine = running(agent)
    bobs = running(other_agent_of(other_user))
    interrupt_for_operator(operation_id=mine.pk, operator="oncall-ann", reason="卡住了 #7", now=timezone.now())

    found = admin_client.get(changelist(Operation), {"q": user.username}).content.decode()
    assert str(mine.pk)[:8] in found and str(bobs.pk)[:8] not in found

    page = admin_client.get(reverse("admin:runtime_operation_change", args=[mine.pk])).content.decode()
    assert "如何结束" in page
    assert "由运维人员 oncall-ann 中断。填写的原因：“卡住了 #7”。" in page  # noqa: RUF001
    assert "(interrupted)" not in page and "（已中断）" in page  # noqa: RUF001
    running_page = admin_client.get(reverse("admin:runtime_operation_change", args=[bobs.pk])).content.decode()
    assert "仍在进行" in running_page
