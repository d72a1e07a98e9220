"""IM messages of interact.services.messages on PostgreSQL (SPEC R-4.3.2, R-4.3.3, R-4.3.5).

The person and the Agent write in the main IM; the Agent may write into an App sub-session block
only while it is open. An ended, unknown or foreign block is refused, bad text is refused, and a
refusal writes nothing. The Runtime's own lifecycle (start, dim, reload, settle, close) never
writes a message: the IM holds only what was posted.
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from interact.models import MAX_MESSAGE_LENGTH, AuthorKind, Message, MessageDelivery
from interact.selectors import workspace_snapshot
from interact.services.messages import UNANSWERED_WINDOW, post_agent_message, post_human_message
from runtime.errors import Rejection, RejectionCode
from runtime.models import Agent, AppInstance, AppSession, AppSessionState, Conversation, LifecycleEvent
from runtime.services.agents import builtin_agent_token, create_agent_token
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.lifecycle import report_surface_reloaded, return_to_interact, set_visibility
from runtime.services.recovery import settle_due
from runtime.services.workspace import close_instance_locked
from runtime.services.workspace_locks import lock_workspace
from runtime.tool_calls import Accepted
from runtime.tool_router import Caller
from tests.support.factories import T0, AgentDriver, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def agent_row(user) -> Agent:
    agent, _token = create_agent_token(user=user, name="reference", now=T0)
    return agent


def start(agent: AgentDriver, seconds: int = 60, *, now=T0) -> Accepted:
    outcome = agent.start(seconds, activity="reading", now=now)
    assert isinstance(outcome, Accepted), outcome
    return outcome


def message_rows(conversation: Conversation) -> list[tuple[Any, ...]]:
    return list(
        Message.objects.filter(conversation=conversation)
        .order_by("created_at", "id")
        .values_list("author_kind", "app_session_id", "text")
    )


# --- the main IM ---------------------------------------------------------------------------------


@pytest.mark.spec("R-4.3.2")
def test_human_and_agent_messages_go_into_the_main_im(conversation, user, agent_row):
    """The person's and the Agent's messages land in the conversation's main IM (no block), trimmed."""
    human = post_human_message(conversation=conversation, user_id=user.id, text="  start a focus please \n", now=T0)
    reply = post_agent_message(conversation=conversation, agent=agent_row, text="How long?", now=at(1))

    assert (human.author_kind, human.author_user_id, human.app_session_id) == (AuthorKind.HUMAN, user.id, None)
    assert human.text == "start a focus please"
    assert (reply.author_kind, reply.author_agent_id, reply.app_session_id) == (AuthorKind.AGENT, agent_row.id, None)
    assert message_rows(conversation) == [
        (AuthorKind.HUMAN, None, "start a focus please"),
        (AuthorKind.AGENT, None, "How long?"),
    ]
    posted = LifecycleEvent.objects.filter(kind="message.posted", conversation_id=conversation.id)
    assert sorted(e.data["message_id"] for e in posted) == sorted([str(human.id), str(reply.id)])


@pytest.mark.spec("R-4.3.2")
def test_a_message_of_exactly_the_limit_is_accepted(conversation, user):
    """A text of exactly MAX_MESSAGE_LENGTH characters (after trimming) is a valid message."""
    text = "字" * MAX_MESSAGE_LENGTH
    message = post_human_message(conversation=conversation, user_id=user.id, text=f" {text} ", now=T0)
    assert Message.objects.get(pk=message.pk).text == text


# --- sub-session blocks ----------------------------------------------------------------------------


@pytest.mark.spec("R-4.3.2", "R-4.3.3")
def test_an_agent_message_goes_into_an_open_sub_session_block(conversation, agent, agent_row):
    """While the focus runs, the Agent's message about it goes into that sub-session's block."""
    started = start(agent)
    message = post_agent_message(
        conversation=conversation,
        agent=agent_row,
        text="Focus started: 1 minute of reading.",
        app_session_id=str(started.app_session_id),
        now=at(1),
    )
    assert message.app_session_id == started.app_session_id
    assert message_rows(conversation) == [(AuthorKind.AGENT, started.app_session_id, message.text)]


@pytest.mark.spec("R-4.3.5")
def test_an_ended_block_is_read_only(conversation, agent, agent_row):
    """Once the focus completed and its sub-session ended, a message into it is ``app_session_ended``
    and nothing is written."""
    started = start(agent)
    assert settle_due(now=at(60)).settled
    assert AppSession.objects.get(pk=started.app_session_id).state == AppSessionState.ENDED

    with pytest.raises(Rejection) as excinfo:
        post_agent_message(
            conversation=conversation,
            agent=agent_row,
            text="Too late for this block",
            app_session_id=str(started.app_session_id),
            now=at(61),
        )
    assert excinfo.value.code == RejectionCode.APP_SESSION_ENDED
    assert message_rows(conversation) == []


@pytest.mark.spec("R-4.3.5")
@pytest.mark.parametrize("which", ["random", "not-a-uuid", "foreign"])
def test_an_unknown_or_foreign_block_is_refused(conversation, agent_row, other_user, which):
    """A block id that is not a sub-session of this conversation (random, malformed, or another
    user's open one) is ``unknown_app_session``; nothing is written anywhere."""
    if which == "random":
        block_id: object = str(uuid.uuid4())
    elif which == "not-a-uuid":
        block_id = "block-1"
    else:
        foreign = conversation_get_or_create_default(user=other_user)
        outcome = AgentDriver(caller=Caller(label="agent:bob", user_id=other_user.id), conversation=foreign).start(
            60, now=T0
        )
        assert isinstance(outcome, Accepted)
        block_id = str(outcome.app_session_id)

    with pytest.raises(Rejection) as excinfo:
        post_agent_message(conversation=conversation, agent=agent_row, text="hi", app_session_id=block_id, now=T0)
    assert excinfo.value.code == RejectionCode.UNKNOWN_APP_SESSION
    assert Message.objects.count() == 0


# --- text validation -------------------------------------------------------------------------------

BAD_TEXTS = [
    pytest.param("", id="empty"),
    pytest.param(" \n\t ", id="whitespace"),
    pytest.param("x" * (MAX_MESSAGE_LENGTH + 1), id="too-long"),
    pytest.param(None, id="null"),
    pytest.param(42, id="number"),
    pytest.param(["hi"], id="list"),
    pytest.param({"text": "hi"}, id="object"),
]


@pytest.mark.spec("R-4.3.2")
@pytest.mark.parametrize("text", BAD_TEXTS)
def test_bad_text_is_refused_and_writes_nothing(conversation, user, agent_row, agent, text):
    """Empty, blank, over-long or non-string text is ``invalid_arguments`` from the person and from
    the Agent (main IM or block), and no message is written."""
    started = start(agent)
    attempts = [
        lambda: post_human_message(conversation=conversation, user_id=user.id, text=text, now=at(1)),
        lambda: post_agent_message(conversation=conversation, agent=agent_row, text=text, now=at(1)),
        lambda: post_agent_message(
            conversation=conversation,
            agent=agent_row,
            text=text,
            app_session_id=str(started.app_session_id),
            now=at(1),
        ),
    ]
    for attempt in attempts:
        with pytest.raises(Rejection) as excinfo:
            attempt()
        assert excinfo.value.code == RejectionCode.INVALID_ARGUMENTS
    assert Message.objects.count() == 0
    assert not LifecycleEvent.objects.filter(kind="message.posted").exists()


# --- no lifecycle noise ----------------------------------------------------------------------------


@pytest.mark.spec("R-4.3.3")
def test_lifecycle_never_writes_messages(conversation, user, agent, agent_row):
    """Starting, dimming, reloading, completing, a second round and returning to Interact write no
    message: the IM holds exactly the messages that were posted, and the workspace timeline shows
    only those messages and the two blocks (no countdown ticks, no exit notes)."""
    posted = [post_human_message(conversation=conversation, user_id=user.id, text="focus 60 seconds", now=T0)]
    first = start(agent, now=at(1))
    posted.append(
        post_agent_message(
            conversation=conversation,
            agent=agent_row,
            text="Started.",
            app_session_id=str(first.app_session_id),
            now=at(2),
        )
    )
    set_visibility(conversation_id=conversation.id, visible=False, now=at(10))
    set_visibility(conversation_id=conversation.id, visible=True, now=at(20))
    report_surface_reloaded(conversation_id=conversation.id, instance_id=first.instance_id, now=at(30))
    for second in range(3, 60, 7):  # a sweep that finds nothing due is not a tick either
        settle_due(now=at(second))
    assert settle_due(now=at(61)).settled == [first.operation_id]

    second = start(agent, now=at(70))
    return_to_interact(conversation_id=conversation.id, now=at(80))
    assert AppInstance.objects.get(pk=second.instance_id).closed_at == at(80)

    expected = [(m.author_kind, m.app_session_id, m.text) for m in posted]
    assert message_rows(conversation) == expected

    snapshot = workspace_snapshot(user=user, conversation_id=conversation.id, now=at(90))
    main = [(e["type"], e.get("message_id") or e.get("app_session_id")) for e in snapshot["timeline"]]
    assert main == [
        ("message", str(posted[0].id)),
        ("block", str(first.app_session_id)),
        ("block", str(second.app_session_id)),
    ]
    first_block, second_block = snapshot["timeline"][1], snapshot["timeline"][2]
    assert [e["message_id"] for e in first_block["entries"]] == [str(posted[1].id)]
    assert second_block["entries"] == []


# --- a block ending while a message is being posted -----------------------------------------------


def _waiting_on_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"


@pytest.mark.django_db(transaction=True)
@pytest.mark.spec("R-4.3.5")
@pytest.mark.postgres(reason="it sees the message wait on the row lock in pg_stat_activity")
def test_a_message_racing_the_end_of_its_block_is_refused(user, agent_row):
    """An Agent message into a block whose close is being committed waits for that close and is
    then refused ``app_session_ended``: an ended block never gains a message."""
    conversation = conversation_get_or_create_default(user=user)
    started = AgentDriver(caller=Caller(label="agent:test", user_id=user.id), conversation=conversation).start(
        60, now=T0
    )
    assert isinstance(started, Accepted)
    closing, may_commit = threading.Event(), threading.Event()
    poster: dict[str, Any] = {}

    def close_and_hold() -> None:
        try:
            with transaction.atomic():
                workspace = lock_workspace(conversation.id, now=at(5))
                instance = AppInstance.objects.select_for_update().get(pk=started.instance_id)
                close_instance_locked(workspace, instance, reason="closed_by_user", now=at(5))
                closing.set()
                assert may_commit.wait(10)
        finally:
            connections.close_all()

    def post() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            poster["pid"] = cursor.fetchone()[0]
        try:
            poster["message"] = post_agent_message(
                conversation=conversation,
                agent=agent_row,
                text="Still going?",
                app_session_id=str(started.app_session_id),
                now=at(5),
            )
        except Rejection as rejection:
            poster["rejection"] = rejection
        finally:
            connections.close_all()

    closer = threading.Thread(target=close_and_hold)
    closer.start()
    try:
        assert closing.wait(10)
        writer = threading.Thread(target=post)
        writer.start()
        # Let the close commit only once the post either finished or is blocked behind it.
        deadline = time.monotonic() + 10
        while writer.is_alive() and not ("pid" in poster and _waiting_on_a_lock(poster["pid"])):
            assert time.monotonic() < deadline, "the post neither finished nor waited"
            time.sleep(0.01)
    finally:
        may_commit.set()
        closer.join(10)
    writer.join(10)

    assert "message" not in poster, "a message was written into a block that was ending"
    assert poster["rejection"].code == RejectionCode.APP_SESSION_ENDED
    assert not Message.objects.filter(app_session_id=started.app_session_id).exists()


# --- an Agent created after the person wrote (a new user's first words) -------------------------


def deliveries_of(agent: Agent) -> set[str]:
    return {str(pk) for pk in MessageDelivery.objects.filter(agent=agent).values_list("message_id", flat=True)}


@pytest.mark.spec("R-2.2.6", "R-2.1.1")
def test_an_agent_created_after_the_person_wrote_is_given_the_unanswered_message(conversation, user):
    first = post_human_message(conversation=conversation, user_id=user.id, text="help", now=T0)

    agent, _token = builtin_agent_token(user=user, name="reference", now=at(1))

    assert deliveries_of(agent) == {str(first.id)}
    # The later Agent of the same person is given it too: every Agent hears every unanswered word.
    later, _token = create_agent_token(user=user, name="laptop", now=at(2))
    assert deliveries_of(later) == {str(first.id)}


@pytest.mark.spec("R-2.2.6")
def test_a_new_agent_is_not_given_what_was_answered_or_long_ago(conversation, user, other_user):
    speaker, _token = create_agent_token(user=user, name="first", now=T0)
    answered = post_human_message(conversation=conversation, user_id=user.id, text="answered", now=T0)
    post_agent_message(conversation=conversation, agent=speaker, text="here you are", now=at(1))
    unanswered = post_human_message(conversation=conversation, user_id=user.id, text="and this?", now=at(2))
    old_conversation = conversation_get_or_create_default(user=other_user)
    post_human_message(conversation=old_conversation, user_id=other_user.id, text="last week", now=T0)

    newcomer, _token = create_agent_token(user=user, name="second", now=at(3))
    stranger, _token = create_agent_token(user=other_user, name="theirs", now=T0 + UNANSWERED_WINDOW * 2)

    assert deliveries_of(newcomer) == {str(unanswered.id)}
    assert str(answered.id) not in deliveries_of(newcomer)
    assert deliveries_of(stranger) == set()


@pytest.mark.django_db(transaction=True)
@pytest.mark.spec("R-2.2.6")
@pytest.mark.postgres(reason="the race needs two writers at once; SQLite runs one writer at a time")
def test_a_message_racing_the_creation_of_the_agent_reaches_it(django_user_model):
    """Many new people each write their first message at the moment their built-in Agent is made:
    every message reaches that Agent, whichever transaction commits first."""
    rounds = 24
    users = [django_user_model.objects.create_user(username=f"new{i}", password="pw-new-123") for i in range(rounds)]
    conversations = {user.pk: conversation_get_or_create_default(user=user) for user in users}
    messages: dict[int, str] = {}
    errors: list[BaseException] = []

    def write(user) -> None:
        message = post_human_message(
            conversation=conversations[user.pk], user_id=user.pk, text="hello", now=timezone.now()
        )
        messages[user.pk] = str(message.id)

    def create(user) -> None:
        builtin_agent_token(user=user, name="reference", now=timezone.now())

    def run(fn, user, barrier: threading.Barrier) -> None:
        try:
            barrier.wait(timeout=10)
            fn(user)
        except BaseException as error:  # reported below, with the round
            errors.append(error)
        finally:
            connections.close_all()

    for user in users:
        barrier = threading.Barrier(2)
        threads = [threading.Thread(target=run, args=(fn, user, barrier)) for fn in (write, create)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    assert errors == []
    lost = [
        user.username
        for user in users
        if messages[user.pk] not in deliveries_of(Agent.objects.get(user=user, name="reference"))
    ]
    assert lost == []
