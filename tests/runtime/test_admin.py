"""The operator's admin (issue 3, item 7): every Runtime object is inspectable, nothing is editable
by hand, and the recovery sweep / settle action run through the services.

Rows are built through the real Tool Router and services; pages are fetched with Django's test
client against real PostgreSQL.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from datetime import timedelta
from html import escape

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from interact.models import LanguagePreference
from runtime.models import (
    Agent,
    AppInstance,
    AppSession,
    Conversation,
    InstanceSnapshot,
    LifecycleEvent,
    Operation,
    OutboxEntry,
    ToolCall,
    Workspace,
)
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.lifecycle import open_app, set_visibility
from runtime.services.settlements import settle_operation
from runtime.services.snapshots import save_snapshot
from runtime.tool_calls import Accepted, Rejected
from runtime.tool_router import Caller
from runtime.transitions import OperationState, Trigger
from tests.support.factories import T0, AgentDriver, at

pytestmark = pytest.mark.django_db

RUNTIME_MODELS = (
    AppInstance,
    AppSession,
    Operation,
    ToolCall,
    InstanceSnapshot,
    OutboxEntry,
    LifecycleEvent,
    Workspace,
)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    # Passwords are not under test here; the default PBKDF2 costs ~0.6 s for each of the 3 users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def admin_url(model: type, view: str, *args: object) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def changelist_results(client: Client, model: type, **params: str) -> list:
    response = client.get(admin_url(model, "changelist"), params)
    assert response.status_code == 200, response.content[:500]
    return list(response.context["cl"].result_list)


def message_texts(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@dataclass
class Scenario:
    conversation: Conversation
    other_conversation: Conversation
    completed: Operation
    focusing: Operation
    other_focusing: Operation
    rejected_call_id: str
    notes: AppInstance


@pytest.fixture
def scenario(agent: AgentDriver, conversation: Conversation, other_user) -> Scenario:
    """One settled focus, one running focus, a rejection, a notes snapshot; and another user's focus."""
    done = agent.start(60, "write the report", now=T0)
    assert isinstance(done, Accepted)
    assert settle_operation(operation_id=done.operation_id, trigger=Trigger.DEADLINE, now=at(60)).settled
    notes = open_app(conversation_id=conversation.id, app_id="notes", now=at(70))
    save_snapshot(
        conversation_id=conversation.id,
        instance_id=notes.id,
        state={"text": "<b>milk</b>"},
        expected_revision=0,
        now=at(71),
    )
    running = agent.start(600, now=at(100))
    assert isinstance(running, Accepted)
    rejected = agent.start(60, now=at(110))
    assert isinstance(rejected, Rejected)

    other_conversation = conversation_get_or_create_default(user=other_user)
    other_agent = AgentDriver(
        caller=Caller(label="agent:other", user_id=other_user.id), conversation=other_conversation
    )
    other = other_agent.start(600, now=at(5))
    assert isinstance(other, Accepted)
    return Scenario(
        conversation=conversation,
        other_conversation=other_conversation,
        completed=Operation.objects.get(pk=done.operation_id),
        focusing=Operation.objects.get(pk=running.operation_id),
        other_focusing=Operation.objects.get(pk=other.operation_id),
        rejected_call_id=rejected.source_tool_call_id,
        notes=notes,
    )


@pytest.mark.spec("R-2.2.5", "R-4.2.4")
def test_every_changelist_and_detail_page_renders_for_real_rows(admin_client: Client, scenario: Scenario):
    """A superuser sees every Runtime changelist and a detail page of a real row of each model."""
    for model in (*RUNTIME_MODELS, Conversation):
        assert model.objects.exists(), f"the scenario built no {model.__name__}"
        listed = changelist_results(admin_client, model)
        assert listed, f"{model.__name__} changelist is empty"
        obj = model.objects.order_by("pk").first()
        detail = admin_client.get(admin_url(model, "change", obj.pk))
        assert detail.status_code == 200, (model.__name__, detail.content[:500])


@pytest.mark.spec("R-2.2.5", "R-4.2.4")
def test_the_operation_page_links_to_its_instance_session_tool_call_and_outbox_entry(
    admin_client: Client, scenario: Scenario
):
    """An operation's page links to every object of its round; JSON is shown pretty-printed."""
    operation = scenario.completed
    page = admin_client.get(admin_url(Operation, "change", operation.pk)).content.decode()
    for model, pk in (
        (AppInstance, operation.instance_id),
        (AppSession, operation.app_session_id),
        (ToolCall, operation.tool_call_id),
        (OutboxEntry, operation.outbox_entry.pk),
        (Conversation, operation.conversation_id),
    ):
        assert f'href="{admin_url(model, "change", pk)}"' in page, model.__name__

    agent = Agent.objects.create(name="night-shift-agent", user=operation.conversation.owner)
    OutboxEntry.objects.filter(pk=operation.outbox_entry.pk).update(agent=agent)  # as a socket Agent's call sets it
    outbox_list = admin_client.get(admin_url(OutboxEntry, "changelist")).content.decode()
    assert f'href="{admin_url(Agent, "change", agent.pk)}">{escape(str(agent))}<' in outbox_list
    searched = admin_client.get(admin_url(OutboxEntry, "changelist"), {"q": agent.name}).content.decode()
    assert str(operation.outbox_entry.pk) in searched  # "whose Agent?" answered by the Agent's name too

    outbox_page = admin_client.get(admin_url(OutboxEntry, "change", operation.outbox_entry.pk)).content.decode()
    assert "<pre" in outbox_page and escape('"state": "completed"') in outbox_page  # indented JSON, read-only
    assert f'href="{admin_url(Operation, "change", operation.pk)}"' in outbox_page

    snapshot_page = admin_client.get(admin_url(InstanceSnapshot, "change", scenario.notes.pk)).content.decode()
    assert "&lt;b&gt;milk&lt;/b&gt;" in snapshot_page and "<b>milk</b>" not in snapshot_page  # escaped


@pytest.mark.spec("R-3.12")
def test_changelists_filter_by_conversation_and_state(admin_client: Client, scenario: Scenario):
    """?conversation_id= and the state filters narrow the changelists to exactly the matching rows."""
    conversation = str(scenario.conversation.pk)
    mine = changelist_results(admin_client, Operation, conversation_id=conversation)
    assert {o.pk for o in mine} == {scenario.completed.pk, scenario.focusing.pk}
    focusing = changelist_results(admin_client, Operation, state__exact=OperationState.RUNNING)
    assert {o.pk for o in focusing} == {scenario.focusing.pk, scenario.other_focusing.pk}
    both = changelist_results(admin_client, Operation, conversation_id=conversation, state__exact="completed")
    assert [o.pk for o in both] == [scenario.completed.pk]

    instances = changelist_results(
        admin_client, AppInstance, conversation_id=conversation, lifecycle_state__exact="closed"
    )
    assert [i.pk for i in instances] == [scenario.completed.instance_id]
    by_app = changelist_results(admin_client, AppInstance, app_id__exact="notes")
    assert [i.pk for i in by_app] == [scenario.notes.pk]
    snapshots = changelist_results(admin_client, InstanceSnapshot, conversation_id=str(scenario.other_conversation.pk))
    assert [s.pk for s in snapshots] == [scenario.other_focusing.instance_id]
    pending = changelist_results(admin_client, OutboxEntry, acked="no", conversation_id=conversation)
    assert [e.operation_id for e in pending] == [scenario.completed.pk]
    assert changelist_results(admin_client, OutboxEntry, acked="yes") == []

    found = changelist_results(admin_client, ToolCall, q=scenario.focusing.source_tool_call_id)
    assert [c.pk for c in found] == [scenario.focusing.tool_call_id]
    by_id = changelist_results(admin_client, Operation, q=str(scenario.other_focusing.pk))
    assert [o.pk for o in by_id] == [scenario.other_focusing.pk]

    bad = admin_client.get(admin_url(Operation, "changelist"), {"conversation_id": "not-a-uuid"})
    assert bad.status_code == 302 and "e=1" in bad.url  # the admin's "bad filter" page, not a 500


@pytest.mark.spec("R-3.12", "R-3.5")
def test_the_event_log_is_newest_first_and_filters_by_kind_and_conversation(admin_client: Client, scenario: Scenario):
    """The event log lists newest first and narrows by kind and conversation; rejections are in it."""
    everything = changelist_results(admin_client, LifecycleEvent)
    assert [e.pk for e in everything] == sorted((e.pk for e in everything), reverse=True)
    assert len(everything) == min(LifecycleEvent.objects.count(), 50)

    conversation = str(scenario.conversation.pk)
    started = changelist_results(
        admin_client, LifecycleEvent, kind__exact="operation.started", conversation_id=conversation
    )
    assert {e.operation_id for e in started} == {scenario.completed.pk, scenario.focusing.pk}
    rejected = changelist_results(admin_client, LifecycleEvent, kind__exact="tool.rejected")
    assert [(e.source_tool_call_id, e.data["code"]) for e in rejected] == [
        (scenario.rejected_call_id, "active_focusing_operation")
    ]
    other = changelist_results(admin_client, LifecycleEvent, conversation_id=str(scenario.other_conversation.pk))
    assert other and {e.conversation_id for e in other} == {scenario.other_conversation.pk}
    by_call = changelist_results(admin_client, LifecycleEvent, q=scenario.focusing.source_tool_call_id)
    assert "operation.started" in {e.kind for e in by_call}


@pytest.mark.spec("R-2.2.5", "R-3.5")
def test_runtime_rows_can_not_be_added_changed_or_deleted_even_by_a_superuser(
    admin_client: Client, admin_user, scenario: Scenario
):
    """Add, change and delete are refused for every Runtime model; the rows stay as they were."""
    request = RequestFactory().get("/")
    request.user = admin_user
    for model in RUNTIME_MODELS:
        model_admin = admin.site._registry[model]
        obj = model.objects.order_by("pk").first()
        assert not model_admin.has_add_permission(request)
        assert not model_admin.has_change_permission(request, obj)
        assert not model_admin.has_delete_permission(request, obj)
        assert model_admin.has_view_permission(request, obj)
        assert admin_client.get(admin_url(model, "add")).status_code == 403, model.__name__
        assert admin_client.post(admin_url(model, "change", obj.pk), {}).status_code == 403, model.__name__
        assert admin_client.get(admin_url(model, "delete", obj.pk)).status_code == 403, model.__name__
        assert admin_client.post(admin_url(model, "delete", obj.pk), {"post": "yes"}).status_code == 403
        assert model.objects.filter(pk=obj.pk).exists()

    operations = admin_client.get(admin_url(Operation, "changelist")).context
    assert "delete_selected" not in dict(operations["action_form"].fields["action"].choices)
    scenario.focusing.refresh_from_db()
    assert scenario.focusing.state == OperationState.RUNNING


@pytest.mark.spec("R-3.11")
def test_a_conversation_title_is_editable_but_not_its_owner_and_it_can_not_be_added_or_deleted(
    admin_client: Client, scenario: Scenario, other_user
):
    """Only the title of a conversation changes through the admin."""
    conversation = scenario.conversation
    owner_id = conversation.owner_id
    response = admin_client.post(
        admin_url(Conversation, "change", conversation.pk),
        {"title": "Renamed", "owner": other_user.pk, "scope": "other", "is_default": ""},
    )
    assert response.status_code == 302, response.content[:500]
    conversation.refresh_from_db()
    assert (conversation.title, conversation.owner_id, conversation.is_default) == ("Renamed", owner_id, True)
    assert admin_client.get(admin_url(Conversation, "add")).status_code == 403
    assert admin_client.post(admin_url(Conversation, "delete", conversation.pk), {"post": "yes"}).status_code == 403
    page = admin_client.get(admin_url(Conversation, "change", conversation.pk)).content.decode()
    assert f"{admin_url(Operation, 'changelist')}?conversation_id={conversation.pk}" in page


@pytest.mark.spec("R-2.2.3")
def test_a_non_staff_user_is_sent_to_the_admin_login(client: Client, user, scenario: Scenario):
    """Neither an anonymous visitor nor a logged-in non-staff user reaches the admin or its sweep."""
    for who in ("anonymous", "user"):
        if who == "user":
            client.force_login(user)
        for url in (admin_url(Operation, "changelist"), admin_url(LifecycleEvent, "changelist")):
            response = client.get(url)
            assert response.status_code == 302 and response.url.startswith(reverse("admin:login")), (who, url)
        response = client.post(reverse("admin:runtime_operation_recover"))
        assert response.status_code == 302 and response.url.startswith(reverse("admin:login"))
    scenario.focusing.refresh_from_db()
    assert scenario.focusing.state == OperationState.RUNNING


@pytest.mark.spec("R-4.4.1", "R-4.4.3", "R-2.2.5")
def test_the_recovery_sweep_settles_a_due_focus_once_and_reports_the_counts(
    admin_client: Client, agent: AgentDriver, other_user
):
    """Run from the Operation changelist with nothing selected, the sweep settles what is due
    (completed at ends_at, one outbox entry), resumes what runs, and says so."""
    now = timezone.now()
    due = agent.start(60, now=now - timedelta(seconds=120))
    other_conversation = conversation_get_or_create_default(user=other_user)
    other_agent = AgentDriver(
        caller=Caller(label="agent:other", user_id=other_user.id), conversation=other_conversation
    )
    running = other_agent.start(600, now=now - timedelta(seconds=10))
    assert isinstance(due, Accepted) and isinstance(running, Accepted)

    changelist = admin_client.get(admin_url(Operation, "changelist")).content.decode()
    recover_url = reverse("admin:runtime_operation_recover")
    assert f'href="{recover_url}"' in changelist
    preview = admin_client.get(recover_url)  # the dry run changes nothing
    assert preview.status_code == 200
    assert preview.context["preview"].counts() == {
        "dry_run": True,
        "due": 1,
        "settled": 0,
        "failed": 0,
        "flagged": 0,
        "resumed": 1,
        "unacked_outbox": 0,
    }
    assert Operation.objects.get(pk=due.operation_id).state == OperationState.RUNNING

    response = admin_client.post(recover_url, follow=True)
    assert response.redirect_chain[-1][0] == admin_url(Operation, "changelist")
    assert "Recovery sweep ran: settled 1, failed 0, flagged 0, resumed 1, unacked outbox 1." in message_texts(response)
    operation = Operation.objects.get(pk=due.operation_id)
    assert operation.state == OperationState.COMPLETED and operation.ended_at == operation.ends_at
    assert OutboxEntry.objects.filter(operation=operation).count() == 1
    assert Operation.objects.get(pk=running.operation_id).state == OperationState.RUNNING

    again = admin_client.post(recover_url, follow=True)  # repeating it settles nothing twice
    assert "Recovery sweep ran: settled 0, failed 0, flagged 0, resumed 1, unacked outbox 1." in message_texts(again)
    assert OutboxEntry.objects.count() == 1
    assert LifecycleEvent.objects.filter(kind="recovery.ran").count() == 2


@pytest.mark.spec("R-4.4.1", "R-4.2.3", "R-2.2.5")
def test_the_settle_action_settles_only_the_selected_due_operations(
    admin_client: Client, agent: AgentDriver, other_user
):
    """The action settles a selected due operation, leaves a not-due one focusing and a final one as it is."""
    now = timezone.now()
    final = agent.start(30, now=now - timedelta(seconds=300))
    assert settle_operation(operation_id=final.operation_id, trigger=Trigger.DEADLINE, now=now - timedelta(seconds=270))
    due = agent.start(60, now=now - timedelta(seconds=120))
    other_conversation = conversation_get_or_create_default(user=other_user)
    other_agent = AgentDriver(
        caller=Caller(label="agent:other", user_id=other_user.id), conversation=other_conversation
    )
    running = other_agent.start(600, now=now - timedelta(seconds=10))

    def run_action(*operation_ids) -> list[str]:
        response = admin_client.post(
            admin_url(Operation, "changelist"),
            {"action": "settle_due_operations", "_selected_action": [str(pk) for pk in operation_ids], "index": 0},
            follow=True,
        )
        assert response.status_code == 200
        return message_texts(response)

    assert "Settled 1 due operation; 0 not due yet; 1 already final." in run_action(
        due.operation_id, final.operation_id
    )
    operation = Operation.objects.get(pk=due.operation_id)
    assert operation.state == OperationState.COMPLETED and operation.ended_at == operation.ends_at
    assert OutboxEntry.objects.filter(operation=operation).count() == 1

    assert "Settled 0 due operations; 1 not due yet; 0 already final." in run_action(running.operation_id)
    assert Operation.objects.get(pk=running.operation_id).state == OperationState.RUNNING
    assert OutboxEntry.objects.count() == 2  # the final one's and the due one's: nothing written twice


@pytest.mark.spec("R-2.2.3", "R-4.4.1")
def test_the_recovery_commands_need_the_settle_permission_not_only_view(
    client: Client, django_user_model, agent: AgentDriver
):
    """Staff who may only view operations read the changelist and the sweep's dry run, but are not
    offered the settle action, get no sweep button, and a posted action or sweep settles nothing (the
    sweep is 403). Granted ``runtime.settle_operations`` the same staff member runs both."""
    now = timezone.now()
    due = agent.start(60, now=now - timedelta(seconds=120))
    assert isinstance(due, Accepted)
    staff = django_user_model.objects.create_user("clerk", password="pw-clerk-123", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    client.force_login(staff)
    changelist_url = admin_url(Operation, "changelist")
    recover_url = reverse("admin:runtime_operation_recover")
    settle = {"action": "settle_due_operations", "_selected_action": [str(due.operation_id)], "index": 0}

    def offered_actions() -> set[str]:
        response = client.get(changelist_url)
        assert response.status_code == 200
        form = response.context["action_form"]
        return set() if form is None else {name for name, _label in form.fields["action"].choices}

    def nothing_settled() -> None:
        assert Operation.objects.get(pk=due.operation_id).state == OperationState.RUNNING
        assert not OutboxEntry.objects.exists()
        assert not LifecycleEvent.objects.filter(kind__in=["recovery.ran", "operation.completed"]).exists()

    assert "settle_due_operations" not in offered_actions()
    preview = client.get(recover_url)
    assert preview.status_code == 200 and preview.context["preview"].counts()["due"] == 1
    assert b'value="Run the recovery sweep now"' not in preview.content
    assert client.post(changelist_url, settle).status_code in (200, 302)
    assert client.post(recover_url).status_code == 403
    nothing_settled()

    staff.user_permissions.add(Permission.objects.get(content_type__app_label="runtime", codename="settle_operations"))
    assert "settle_due_operations" in offered_actions()
    assert b'value="Run the recovery sweep now"' in client.get(recover_url).content
    response = client.post(changelist_url, settle, follow=True)
    assert "Settled 1 due operation; 0 not due yet; 0 already final." in message_texts(response)
    assert Operation.objects.get(pk=due.operation_id).state == OperationState.COMPLETED
    response = client.post(recover_url, follow=True)
    assert "Recovery sweep ran: settled 0, failed 0, flagged 0, resumed 0, unacked outbox 1." in message_texts(response)


# --- for operators: seconds, lag, quiet event log, plain words, the dashboard (issue 18) -----------


@pytest.mark.spec("R-3.4", "R-4.4.1")
def test_operation_times_are_to_the_second_and_the_settlement_lag_is_a_column(admin_client: Client, agent):
    """started/ends/ended/settled show seconds (ISO order) in the list and on the page, and a
    completed focus settled 17.4 s after its end time shows that lag; an interrupted one has none."""
    late = agent.start(60, now=at(0.0))
    assert settle_operation(operation_id=late.operation_id, trigger=Trigger.DEADLINE, now=at(77.4)).settled
    stopped = agent.start(600, now=at(100))
    assert settle_operation(operation_id=stopped.operation_id, trigger=Trigger.AGENT_INTERRUPT, now=at(130)).settled

    response = admin_client.get(admin_url(Operation, "changelist"))
    page = response.content.decode()
    assert "2026-01-05 09:00:00" in page and "2026-01-05 09:01:00" in page and "2026-01-05 09:01:17" in page
    assert "Settlement lag" in page
    rows = {str(o.pk): o for o in response.context["cl"].result_list}
    model_admin = admin.site._registry[Operation]
    assert model_admin.settlement_lag(rows[str(late.operation_id)]) == "17.4 s"
    assert model_admin.settlement_lag(rows[str(stopped.operation_id)]) == "-"
    column = str(list(model_admin.list_display).index("settlement_lag") + 1)
    by_lag = changelist_results(admin_client, Operation, o=column)  # ascending: early end (negative) first
    assert [str(o.pk) for o in by_lag] == [str(stopped.operation_id), str(late.operation_id)]

    detail = admin_client.get(admin_url(Operation, "change", late.operation_id)).content.decode()
    assert "2026-01-05 09:01:17" in detail and "p.m." not in detail and "a.m." not in detail


@pytest.mark.spec("R-4.2.2")
def test_the_event_log_hides_visibility_noise_until_asked(admin_client: Client, agent, conversation):
    """By default the event list leaves out the page being hidden and shown (``lifecycle.visibility``,
    ``instance.suspended`` and the return to the foreground after it); one click shows all, and
    asking for such a kind by name shows it."""
    started = agent.start(600, now=at(0))
    set_visibility(conversation_id=conversation.id, visible=False, now=at(1))
    set_visibility(conversation_id=conversation.id, visible=True, now=at(2))
    noisy = {"lifecycle.visibility", "instance.suspended"}
    assert noisy <= set(LifecycleEvent.objects.values_list("kind", flat=True))
    back = LifecycleEvent.objects.get(kind="instance.foreground", data__previous="suspended")

    default = changelist_results(admin_client, LifecycleEvent)
    kinds = {e.kind for e in default}
    assert not kinds & noisy and back.pk not in {e.pk for e in default}
    assert "operation.started" in kinds and "instance.foreground" in kinds  # the Pomodoro launch stays
    page = admin_client.get(admin_url(LifecycleEvent, "changelist")).content.decode()
    assert "?visibility=shown" in page and "shown: all events" in page

    everything = changelist_results(admin_client, LifecycleEvent, visibility="shown")
    assert noisy <= {e.kind for e in everything} and back.pk in {e.pk for e in everything}
    assert len(everything) == LifecycleEvent.objects.count()
    by_kind = changelist_results(admin_client, LifecycleEvent, kind__exact="instance.suspended")
    assert [e.kind for e in by_kind] == ["instance.suspended"]
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.RUNNING


def test_help_texts_are_plain_words_without_requirement_ids():
    """Help texts are for operators: the requirement ids belong in code comments."""
    from django.apps import apps

    found = [
        f"{model._meta.label}.{field.name}: {field.help_text}"
        for label in ("runtime", "interact")
        for model in apps.get_app_config(label).get_models()
        for field in model._meta.get_fields()
        if re.search(r"\bR-\d", str(getattr(field, "help_text", "")))
    ]
    assert found == []


@pytest.mark.spec("R-4.4.1")
def test_the_admin_index_has_a_row_per_state_with_links(admin_client: Client, agent, other_user):
    """Running with the end ahead, past the end and not settled, and flagged: each counted, each a
    link to exactly those operations."""
    now = timezone.now()
    running = agent.start(600, now=now - timedelta(seconds=10))
    other_conversation = conversation_get_or_create_default(user=other_user)
    other = AgentDriver(caller=Caller(label="agent:other", user_id=other_user.id), conversation=other_conversation)
    due = other.start(60, now=now - timedelta(seconds=120))
    assert isinstance(running, Accepted) and isinstance(due, Accepted)

    page = admin_client.get(reverse("admin:index")).content.decode()
    counts = dict(re.findall(r'<tr data-state="(\w+)".*?<strong>(\d+)</strong>', page, re.S))
    assert counts == {"running": "1", "due": "1", "flagged": "0"}
    assert "Running, end time still ahead" in page and "Focusing" not in page  # no MiniApp's word in runtime/
    for key, params in (("running", {"deadline": "running"}), ("due", {"deadline": "due"})):
        assert f"{admin_url(Operation, 'changelist')}?{next(iter(params))}={key}" in page
        listed = changelist_results(admin_client, Operation, **params)
        assert [str(o.pk) for o in listed] == [str(running.operation_id if key == "running" else due.operation_id)]

    Operation.objects.filter(pk=due.operation_id).update(
        settle_failures=5, settle_flagged_at=now, next_settle_attempt_at=now, last_settle_error="RuntimeError: boom"
    )
    page = admin_client.get(reverse("admin:index")).content.decode()
    counts = dict(re.findall(r'<tr data-state="(\w+)".*?<strong>(\d+)</strong>', page, re.S))
    assert counts == {"running": "1", "due": "1", "flagged": "1"}
    assert f"{admin_url(Operation, 'changelist')}?needs_operator=flagged" in page


@pytest.mark.spec("R-4.4.1")
def test_recover_runtime_says_its_counts_in_proper_singular_and_plural(agent, other_user):
    """No "operation(s)" or "entr(y/ies)": one is singular, two are plural."""
    now = timezone.now()
    agent.start(60, now=now - timedelta(seconds=120))
    out = io.StringIO()
    call_command("recover_runtime", "--dry-run", stdout=out)
    text = out.getvalue()
    assert "DRY RUN: would settle 1 due operation\n" in text
    assert "would resume 0 running operations; 0 outbox entries not acked yet" in text  # nothing was resumed

    other_conversation = conversation_get_or_create_default(user=other_user)
    other = AgentDriver(caller=Caller(label="agent:other", user_id=other_user.id), conversation=other_conversation)
    other.start(60, now=now - timedelta(seconds=100))
    out = io.StringIO()
    call_command("recover_runtime", stdout=out)
    text = out.getvalue()
    assert "settled 2 due operations\n" in text
    assert "resumed 0 running operations; 2 outbox entries not acked yet" in text
    assert "(s)" not in text and "(y/ies)" not in text
    agent.start(600, now=now)
    out = io.StringIO()
    call_command("recover_runtime", stdout=out)
    assert "resumed 1 running operation; 2 outbox entries not acked yet" in out.getvalue()


@pytest.mark.spec("R-4.1.1")
def test_the_admin_dashboard_and_operation_filters_speak_chinese_to_a_staff_user_who_chose_it(
    admin_client: Client, admin_user, agent
):
    """A staff user whose language is zh-hans meets LineUp's own admin text in Chinese: the
    dashboard's caption and rows on the index, the end-time and needs-an-operator filters, the
    recovery sweep button and the dry-run page; the English stays for everyone else."""
    now = timezone.now()
    assert isinstance(agent.start(60, now=now - timedelta(seconds=120)), Accepted)
    english = admin_client.get(reverse("admin:index")).content.decode()
    assert "Operations right now" in english and "End time passed, not settled yet" in english

    LanguagePreference.objects.create(user=admin_user, language="zh-hans")
    index = admin_client.get(reverse("admin:index")).content.decode()
    assert "当前的操作" in index and "已过结束时间" in index and "运行恢复清扫…" in index
    assert "Operations right now" not in index and "Run the recovery sweep" not in index

    changelist = admin_client.get(admin_url(Operation, "changelist")).content.decode()
    for chinese in (
        "结束时间",
        "需要运维人员处理",
        "已过结束时间",
        "立即运行恢复清扫",
        "结算所选的到期操作",
    ):
        assert chinese in changelist
    for english_text in ("needs an operator", "end time passed, not settled yet", "Run the recovery sweep now"):
        assert english_text not in changelist

    recover = admin_client.get(reverse("admin:runtime_operation_recover")).content.decode()
    assert "演练" in recover and "将结算" in recover and "Right now (dry run)" not in recover


@pytest.mark.spec("R-3.5", "R-4.2.8", "R-2.2.5")
def test_the_event_log_search_finds_a_settlement_by_the_app_that_came_back_and_the_interrupts_call_id(
    admin_client: Client, agent: AgentDriver, conversation: Conversation, other_user
):
    """A settlement is one row whose data names what came to the front and the interrupt's receipt
    (decision 0035): searching either id finds that row, within the sidebar's filters."""
    assert isinstance(agent.start(600, now=T0), Accepted)
    agent.interrupt(now=at(10), call_id="stop-the-focus-7")
    [settled] = LifecycleEvent.objects.filter(conversation_id=conversation.id, kind="operation.interrupted")
    interact = AppInstance.objects.get(conversation=conversation, is_system=True)
    assert settled.data["foreground"]["instance_id"] == str(interact.pk)
    assert settled.data["receipt"]["source_tool_call_id"] == "stop-the-focus-7"
    other = AgentDriver(
        caller=Caller(label="agent:other", user_id=other_user.id),
        conversation=conversation_get_or_create_default(user=other_user),
    )
    assert isinstance(other.start(600, now=T0), Accepted)
    other.interrupt(now=at(10), call_id="stop-the-focus-8")

    for term in (str(interact.pk), interact.pk.hex, "stop-the-focus-7", "STOP-THE-FOCUS-7"):
        found = changelist_results(admin_client, LifecycleEvent, q=term, kind__exact="operation.interrupted")
        assert [e.pk for e in found] == [settled.pk], term
    by_instance = changelist_results(admin_client, LifecycleEvent, q=str(interact.pk))
    assert settled.pk in {e.pk for e in by_instance}
    assert {e.conversation_id for e in by_instance} == {conversation.id}
    elsewhere = changelist_results(
        admin_client, LifecycleEvent, q="stop-the-focus-7", conversation_id=str(other.conversation.pk)
    )
    assert elsewhere == []
