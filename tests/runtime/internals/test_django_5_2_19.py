"""runtime.internals.django_db, checked against Django 5.2.19: each trick still does what the
Runtime relies on (decision 0052). A Django upgrade fails here first; re-check each function
against the new version's source, then rename this file and update ``CHECKED_AGAINST``."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from runtime.internals import django_db
from runtime.models import Conversation
from tests.support.pins import assert_checked_against


def test_the_pinned_and_installed_django_is_the_one_checked() -> None:
    assert_checked_against(django_db.CHECKED_AGAINST, __file__)


@pytest.mark.django_db
def test_a_skipped_health_check_sends_no_check_before_the_next_statement(monkeypatch) -> None:
    connection.ensure_connection()
    checks = []
    monkeypatch.setattr(connection, "health_check_enabled", True)
    monkeypatch.setattr(connection, "is_usable", lambda: checks.append(1) or True)

    connection.health_check_done = False  # as close_if_unusable_or_obsolete leaves it
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    assert checks == [1]  # the check the trick skips is real

    connection.health_check_done = False
    django_db.skip_health_check(connection)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    assert checks == [1]


@pytest.mark.django_db
def test_the_first_execute_wrapper_leaves_a_wrapper_added_meanwhile() -> None:
    seen: list[str] = []

    def first(execute, sql, params, many, context):
        seen.append("first")
        return execute(sql, params, many, context)

    def later(execute, sql, params, many, context):
        seen.append("later")
        return execute(sql, params, many, context)

    before = django_db.execute_wrappers(connection)
    with django_db.first_execute_wrapper(connection, first):
        django_db.add_execute_wrapper(connection, later)
        django_db.add_execute_wrapper(connection, later)  # once, however often
        assert django_db.execute_wrappers(connection) == [first, *before, later]
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    assert seen == ["first", "later"]  # outermost first
    assert django_db.execute_wrappers(connection) == [*before, later]
    connection.execute_wrappers.remove(later)


@pytest.mark.django_db(transaction=True)
def test_the_transaction_token_changes_exactly_when_registered_hooks_are_dropped_or_run() -> None:
    assert not django_db.in_transaction(connection)
    with transaction.atomic():
        assert django_db.in_transaction(connection) and django_db.savepoint_depth(connection) == 0
        token = django_db.transaction_token(connection)
        transaction.on_commit(lambda: None)
        assert django_db.transaction_token(connection) is token  # registering keeps the same list
        with transaction.atomic():
            assert django_db.savepoint_depth(connection) == 1
        assert django_db.transaction_token(connection) is token  # a released savepoint keeps it
        try:
            with transaction.atomic():
                raise RuntimeError
        except RuntimeError:
            pass
        assert django_db.transaction_token(connection) is not token  # a rolled-back savepoint replaces it
        token = django_db.transaction_token(connection)
    assert django_db.transaction_token(connection) is not token  # the commit replaces it

    try:
        with transaction.atomic():
            token = django_db.transaction_token(connection)
            raise RuntimeError
    except RuntimeError:
        pass
    assert django_db.transaction_token(connection) is not token  # so does a rollback


@pytest.mark.django_db
def test_a_note_is_one_per_connection_through_the_proxy_too() -> None:
    assert django_db.note(connection, "probe") is None
    django_db.set_note(connection, "probe", 42)
    assert django_db.note(transaction.get_connection(), "probe") == 42
    django_db.set_note(transaction.get_connection(), "probe", None)
    assert django_db.note(connection, "probe") is None


@pytest.mark.django_db
def test_a_hand_read_row_becomes_an_instance_as_a_query_makes_it(conversation) -> None:
    attnames = [field.attname for field in Conversation._meta.concrete_fields]
    row = Conversation.objects.values_list(*attnames).get(pk=conversation.pk)
    built = django_db.model_from_row(Conversation, connection, attnames, row)
    assert built == conversation and built.title == conversation.title and built.owner_id == conversation.owner_id
    assert built._state.adding is False and built._state.db == connection.alias  # saved as an UPDATE
    built.title = "renamed"
    built.save(update_fields=["title"])
    assert Conversation.objects.get(pk=conversation.pk).title == "renamed"


@pytest.mark.django_db
def test_a_related_row_attached_by_hand_is_read_without_a_query(agent, django_assert_num_queries) -> None:
    from runtime.models import Operation, ToolCall

    started = agent.start(60)
    bare = Operation.objects.get(pk=started.operation_id)
    call = ToolCall.objects.get(pk=bare.tool_call_id)
    assert not django_db.related_is_cached(bare, "tool_call")
    django_db.cache_related(bare, "tool_call", call)
    assert django_db.related_is_cached(bare, "tool_call")
    with django_assert_num_queries(0):
        assert bare.tool_call is call and call.operation is bare  # both ways, as select_related leaves them


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_a_pipeline_sends_the_statements_before_awaiting_a_result_and_a_begin_it_sent_is_seen() -> None:
    """Inside ``pipeline`` Django's cursors queue (an error in a statement not read shows only at the
    end of the block); ``server_transaction_open`` sees a BEGIN sent as a statement in autocommit."""
    from django.db import DataError

    assert not django_db.in_transaction(connection)
    with django_db.pipeline(connection):
        first, second = connection.cursor(), connection.cursor()
        first.execute("BEGIN")
        second.execute("SELECT 1 / 0")
        assert django_db.server_transaction_open(connection)  # queued, not yet answered: still BEGIN's
        with pytest.raises(DataError, match="division by zero"):
            second.fetchall()
    assert django_db.server_transaction_open(connection)  # the failed transaction is open until ROLLBACK
    with pytest.raises(DataError, match="division by zero"), django_db.pipeline(connection):
        connection.cursor().execute("ROLLBACK")
        connection.cursor().execute("SELECT 1 / 0")  # never read: raised at the block's end, as Django's
    with connection.cursor() as cursor:
        cursor.execute("ROLLBACK")
    assert not django_db.server_transaction_open(connection)
    with django_db.pipeline(connection):
        cursors = [connection.cursor() for _ in range(3)]
        for n, cursor in enumerate(cursors):
            cursor.execute("SELECT %s", [n])
        assert [cursor.fetchall() for cursor in cursors] == [[(0,)], [(1,)], [(2,)]]


@pytest.mark.django_db
def test_a_pipeline_sends_statements_unanswered_and_raises_the_servers_error_as_django_does(conversation) -> None:
    """On PostgreSQL the block runs in psycopg's pipeline mode (a statement's answer is not waited
    for: its rowcount is unknown until the block ends); a constraint the server reports at the
    block's end is Django's ``IntegrityError``. Elsewhere the block runs as it would without it."""
    from django.db import IntegrityError

    table = Conversation._meta.db_table
    with django_db.pipeline(connection), connection.cursor() as cursor:
        cursor.execute(f'UPDATE "{table}" SET "title" = %s WHERE "id" = %s', ["piped", conversation.pk.hex])
        if connection.vendor == "postgresql":
            assert cursor.rowcount == -1  # sent, not answered yet
    assert Conversation.objects.get(pk=conversation.pk).title == "piped"
    with pytest.raises(IntegrityError), transaction.atomic():
        with django_db.pipeline(connection), connection.cursor() as cursor:
            cursor.execute(f'UPDATE "{table}" SET "owner_id" = NULL WHERE "id" = %s', [conversation.pk.hex])
