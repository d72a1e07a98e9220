"""Poison isolation (issue 15, part 4; decision 0011): one settlement that raises never holds up the
others, is counted and backed off, and is flagged for an operator after LINEUP_SETTLE_MAX_FAILURES.

The fault is real: a PL/pgSQL trigger on ``runtime_operation`` raises whenever the poisoned row's
state would change, so its settlement fails inside PostgreSQL, mid-transaction, exactly as a broken
row or a bug would make it fail. Only the state change is refused (``NEW.state <> OLD.state``): the
failure count is written to the same row, in its own transaction, and must get through.
Operations are started through the real Tool Router; the admin is fetched with Django's test client
as a staff user holding only the view and settle permissions.
"""

from __future__ import annotations

import io
import json
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from runtime.embedded_scheduler import EmbeddedScheduler
from runtime.models import AppInstance, Conversation, LifecycleEvent, Operation, OutboxEntry, ToolCall
from runtime.selectors import next_deadline
from runtime.services.recovery import recover_runtime, sweep
from runtime.tool_calls import Accepted
from runtime.tool_router import Caller
from runtime.transitions import LifecycleState, OperationState
from tests.support.factories import T0, AgentDriver, at
from tests.support.processes import wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

MAX_FAILURES = 3
BACKOFF = 5.0  # seconds; doubles per failure


@pytest.fixture(autouse=True)
def _require_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.fail("the poison trigger is PL/pgSQL; run these tests with DATABASE_URL=postgres://...")


@pytest.fixture(autouse=True)
def _settle_policy(settings) -> None:
    settings.LINEUP_SETTLE_MAX_FAILURES = MAX_FAILURES
    settings.LINEUP_SETTLE_BACKOFF_SECONDS = BACKOFF
    settings.LINEUP_SETTLE_BACKOFF_MAX_SECONDS = 300.0


@contextmanager
def poisoned(operation_id: uuid.UUID) -> Iterator[None]:
    """Make ``operation_id`` unsettleable in PostgreSQL until the block ends (the trigger is dropped
    even when the test fails: a transactional test's flush would not remove it)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            CREATE FUNCTION lineup_test_poison() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'poisoned operation % (test trigger)', OLD.id;
            END
            $$
            """
        )
        cursor.execute(
            f"""
            CREATE TRIGGER lineup_test_poison BEFORE UPDATE ON {Operation._meta.db_table}
            FOR EACH ROW WHEN (OLD.id = '{operation_id}' AND NEW.state IS DISTINCT FROM OLD.state)
            EXECUTE FUNCTION lineup_test_poison()
            """
        )
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TRIGGER IF EXISTS lineup_test_poison ON {Operation._meta.db_table}")
            cursor.execute("DROP FUNCTION IF EXISTS lineup_test_poison()")


def _start_due_operations(user, count: int, *, first_ends_at_seconds: int = 60) -> list[uuid.UUID]:
    """``count`` focuses, each in its own conversation, ends_at spread over a few seconds; the first
    one has the earliest deadline (the head of the due queue)."""
    caller = Caller(label="agent:test", user_id=user.id)
    ids = []
    for i in range(count):
        conversation = Conversation.objects.create(owner=user, title=f"poison {i}")
        started = AgentDriver(caller=caller, conversation=conversation).start(
            first_ends_at_seconds + (1 + i % 5 if i else 0), now=T0
        )
        assert isinstance(started, Accepted), started
        ids.append(started.operation_id)
    return ids


def _failures(operation_id: uuid.UUID) -> list[LifecycleEvent]:
    return list(LifecycleEvent.objects.filter(kind="settlement.failed", operation_id=operation_id).order_by("id"))


def _staff_client(django_user_model) -> Client:
    staff = django_user_model.objects.create_user(username="operator", password="pw-operator-1", is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="runtime", codename__in=["view_operation", "settle_operations"]
        )
    )
    client = Client()
    client.force_login(staff)
    return client


def _recover_json() -> dict:
    out = io.StringIO()
    call_command("recover_runtime", "--json", stdout=out)
    return json.loads(out.getvalue())


def _assert_still_focusing_untouched(operation_id: uuid.UUID) -> None:
    """The failed settlements were rolled back whole: no terminal state, no outbox entry, no
    settlement event, the start call still accepted, its instance still open."""
    operation = Operation.objects.get(pk=operation_id)
    assert operation.state == OperationState.RUNNING and operation.ended_at is None
    assert not OutboxEntry.objects.filter(operation_id=operation_id).exists()
    assert not LifecycleEvent.objects.filter(operation_id=operation_id, kind="operation.completed").exists()
    assert ToolCall.objects.get(pk=operation.tool_call_id).status == "accepted"
    assert AppInstance.objects.get(pk=operation.instance_id).lifecycle_state != LifecycleState.CLOSED


@pytest.mark.spec("R-4.4.1", "R-4.4.3")
def test_one_poisoned_operation_among_200_due_is_isolated_backed_off_flagged_and_retried(
    user, django_user_model, caplog
):
    ids = _start_due_operations(user, 200)
    poison, others = ids[0], set(ids[1:])

    with poisoned(poison):
        # One sweep: the 199 others settle in it, with their outbox entries; the poisoned one is
        # rolled back alone and its failure counted in a transaction of its own.
        first = sweep(now=at(70))
        assert set(first.settled) == others
        assert OutboxEntry.objects.filter(operation_id__in=others).count() == 199
        assert Operation.objects.filter(pk__in=others, state=OperationState.COMPLETED).count() == 199
        assert [f.operation_id for f in first.failed] == [poison]
        assert first.failed[0].attempt == 1 and "poisoned operation" in first.failed[0].error
        _assert_still_focusing_untouched(poison)
        row = Operation.objects.get(pk=poison)
        assert row.settle_failures == 1
        assert row.next_settle_attempt_at == at(70 + BACKOFF)
        assert row.settle_flagged_at is None
        assert row.last_settle_error.startswith("django.db.utils.ProgrammingError: poisoned operation")
        assert "Traceback" in row.last_settle_error
        [event] = _failures(poison)
        assert event.conversation_id == row.conversation_id
        assert event.data["attempt"] == 1 and "poisoned operation" in event.data["error"]
        [line] = [r.msg for r in caplog.records if isinstance(r.msg, dict) and r.msg["event"] == "settlement.failed"]
        assert line["operation_id"] == str(poison) and line["conversation_id"] == str(row.conversation_id)
        assert line["attempt"] == 1 and line["level"] == "error" and "poisoned operation" in line["error"]

        # Before its next attempt the sweep leaves it alone; the scheduler waits for that attempt
        # rather than spinning on the row's past ends_at.
        assert next_deadline() == at(70 + BACKOFF)
        early = sweep(now=at(70 + BACKOFF - 0.001))
        assert early.settled == [] and early.failed == []
        assert Operation.objects.get(pk=poison).settle_failures == 1

        # After it, it is retried, the backoff doubles; the third failure flags it.
        second = sweep(now=at(75))
        assert [(f.attempt, f.flagged) for f in second.failed] == [(2, False)]
        assert Operation.objects.get(pk=poison).next_settle_attempt_at == at(75 + 2 * BACKOFF)
        assert sweep(now=at(84)).failed == []
        third = sweep(now=at(85))
        assert [(f.attempt, f.flagged) for f in third.failed] == [(3, True)]
        flagged = Operation.objects.get(pk=poison)
        assert flagged.settle_flagged_at == at(85)
        assert LifecycleEvent.objects.filter(kind="settlement.flagged", operation_id=poison).count() == 1

        # Flagged: the periodic sweep no longer retries it, however late, but reports it; nothing
        # else is due, so the embedded scheduler has nothing to wake for.
        later = sweep(now=at(10_000))
        assert later.failed == [] and later.flagged == 1
        assert len(_failures(poison)) == 3
        assert next_deadline() is None
        _assert_still_focusing_untouched(poison)

        # The operator sees it: a list column and the "needs an operator" filter.
        client = _staff_client(django_user_model)
        changelist = reverse("admin:runtime_operation_changelist")
        page = client.get(changelist, {"needs_operator": "flagged"})
        assert page.status_code == 200
        assert [o.pk for o in page.context["cl"].result_list] == [poison]
        assert "NEEDS AN OPERATOR" in page.content.decode()
        assert "needs an operator" in page.content.decode()
        assert client.get(changelist, {"needs_operator": "retrying"}).context["cl"].result_list.count() == 0
        assert str(poison) in client.get(reverse("admin:runtime_operation_recover")).content.decode()

        # recover_runtime is an explicit retry: it tries the flagged one (which fails again) and
        # reports it, counted in due and listed as flagged.
        report = _recover_json()
        assert report["due"] == 1 and report["due_ids"] == [str(poison)]
        assert report["settled"] == 0 and report["failed"] == 1 and report["flagged"] == 1
        assert [f["operation_id"] for f in report["failed_operations"]] == [str(poison)]
        [item] = report["flagged_operations"]
        assert item["operation_id"] == str(poison) and item["settle_failures"] == 4
        assert item["conversation_id"] == str(flagged.conversation_id)
        assert "poisoned operation" in item["last_error"]
        text = io.StringIO()
        call_command("recover_runtime", "--dry-run", stdout=text)
        assert f"FLAGGED {poison}" in text.getvalue()
        _assert_still_focusing_untouched(poison)

    # The fault is gone: the operator's settle action settles it, exactly once.
    response = client.post(
        reverse("admin:runtime_operation_changelist"),
        {"action": "settle_due_operations", "_selected_action": [str(poison)], "index": 0},
    )
    assert response.status_code == 302
    settled = Operation.objects.get(pk=poison)
    assert settled.state == OperationState.COMPLETED and settled.ended_at == settled.ends_at
    assert OutboxEntry.objects.filter(operation_id=poison).count() == 1
    assert LifecycleEvent.objects.filter(kind="operation.completed", operation_id=poison).count() == 1
    again = _recover_json()
    assert again["settled"] == 0 and again["flagged"] == 0 and again["due"] == 0
    assert sweep(now=at(20_000)).settled == []
    assert OutboxEntry.objects.count() == 200
    assert LifecycleEvent.objects.filter(kind="operation.completed").count() == 200
    # Its failures stay on the row as its history; it no longer needs an operator.
    assert settled.settle_failures == 4
    assert client.get(changelist, {"needs_operator": "flagged"}).context["cl"].result_list.count() == 0


@pytest.mark.spec("R-4.4.1", "R-4.4.3")
def test_deadlines_keep_settling_on_time_while_a_flagged_operation_waits(user):
    """With a flagged operation in the table, the sweep, recovery and the embedded scheduler's
    thread (real clock) keep settling every other deadline, each on time."""
    [poison] = _start_due_operations(user, 1)
    with poisoned(poison):
        for moment in (60, 65, 75, 95):
            sweep(now=at(moment))
        assert Operation.objects.get(pk=poison).settle_flagged_at is not None

        later = _start_due_operations(user, 5, first_ends_at_seconds=200)
        swept = sweep(now=at(300))
        assert set(swept.settled) == set(later[:5]) and swept.failed == [] and swept.flagged == 1

        recovered = _start_due_operations(user, 3, first_ends_at_seconds=400)
        summary = recover_runtime(now=at(500))
        assert set(summary.settled) == set(recovered)
        assert [item["operation_id"] for item in summary.flagged] == [str(poison)]

        # The embedded scheduler, on the real clock: its start-up recovery retries the flagged one
        # (and fails), then its loop settles a new deadline within its poll interval.
        scheduler = EmbeddedScheduler()
        scheduler.start()
        try:
            caller = Caller(label="agent:test", user_id=user.id)
            conversation = Conversation.objects.create(owner=user, title="after the poison")
            started = AgentDriver(caller=caller, conversation=conversation).start(1, now=timezone.now())
            assert isinstance(started, Accepted)
            done = wait_for(
                lambda: Operation.objects.filter(pk=started.operation_id, state=OperationState.COMPLETED).first(),
                timeout=15.0,
                what="the embedded scheduler to settle a deadline beside a flagged operation",
            )
            assert done.settled_at - done.ends_at < timedelta(seconds=3)
            assert scheduler._thread is not None and scheduler._thread.is_alive()
        finally:
            scheduler.stop()
            assert not any(t.name == "lineup-deadlines" and t.is_alive() for t in threading.enumerate())
        _assert_still_focusing_untouched(poison)


@pytest.mark.spec("R-4.4.1", "R-2.2.8")
def test_a_settlement_that_fails_after_its_state_change_is_rolled_back_whole(user):
    """The fault strikes late: the terminal state is already written in the settlement's transaction
    when the outbox insert is refused. The whole settlement rolls back (still focusing, no result on
    the tool call), the count survives in its own transaction, and the next try settles it once."""
    [first, second] = _start_due_operations(user, 2)
    with connection.cursor() as cursor:
        cursor.execute(
            """
            CREATE FUNCTION lineup_test_poison_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'outbox refused for %', NEW.operation_id;
            END
            $$
            """
        )
        cursor.execute(
            f"""
            CREATE TRIGGER lineup_test_poison_outbox BEFORE INSERT ON {OutboxEntry._meta.db_table}
            FOR EACH ROW WHEN (NEW.operation_id = '{first}') EXECUTE FUNCTION lineup_test_poison_outbox()
            """
        )
    try:
        summary = sweep(now=at(70))
        assert summary.settled == [second]
        assert [(f.operation_id, f.attempt) for f in summary.failed] == [(first, 1)]
        _assert_still_focusing_untouched(first)
        assert ToolCall.objects.get(operation__pk=first).result is None
        assert Operation.objects.get(pk=first).settle_failures == 1
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TRIGGER IF EXISTS lineup_test_poison_outbox ON {OutboxEntry._meta.db_table}")
            cursor.execute("DROP FUNCTION IF EXISTS lineup_test_poison_outbox()")

    assert sweep(now=at(70 + BACKOFF)).settled == [first]
    assert OutboxEntry.objects.filter(operation_id=first).count() == 1
    assert Operation.objects.get(pk=first).state == OperationState.COMPLETED


@pytest.mark.spec("R-4.4.1", "R-2.2.8", "R-3.10")
def test_a_result_that_breaks_its_result_schema_settles_as_one_error_result_and_is_flagged(user, monkeypatch):
    """The app's result is checked against the start tool's frozen result_schema before the outbox
    write: a bad one is never sent, and never strands its Agent either (decision 0041). That
    operation settles in the same sweep as the others with the one ``result_invalid`` error result,
    and is flagged for an operator with the reason; nothing is retried."""
    import dataclasses

    from runtime import miniapps

    ids = _start_due_operations(user, 3)
    bad, others = ids[0], set(ids[1:])
    pomodoro = miniapps.registered("pomodoro")
    assert pomodoro is not None

    def broken(view):  # e.g. a typo in an app: a state its result_schema does not allow
        return {**pomodoro.result(view), "state": "done"} if view.operation_id == bad else pomodoro.result(view)

    monkeypatch.setitem(miniapps._REGISTERED, "pomodoro", dataclasses.replace(pomodoro, result=broken))
    first = sweep(now=at(70))
    assert set(first.settled) == others | {bad} and not first.failed
    operation = Operation.objects.get(pk=bad)
    assert operation.state == OperationState.COMPLETED
    result = OutboxEntry.objects.get(operation_id=bad).payload["result"]
    assert (result["isError"], result["error"]["code"], result["state"]) == (True, "result_invalid", "completed")
    assert "done" not in json.dumps(result)  # the bad result itself never leaves
    assert operation.settle_flagged_at is not None
    assert operation.last_settle_error.startswith("pomodoro.start result state: 'done' is not one of")
    for other in others:
        assert "isError" not in OutboxEntry.objects.get(operation_id=other).payload["result"]
    # Settled: no sweep or recovery tries it again.
    assert sweep(now=at(200)).settled == []
