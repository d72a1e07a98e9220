"""Standard interactions of interact.services.interactions on PostgreSQL (SPEC R-2.1.1, R-2.1.2, R-4.3.4,
R-4.3.5).

notice / choice / confirm / input are created ``pending`` and resolved exactly once: answered (with
a value valid for the kind) or dismissed by the person, timed out by the sweep, or failed when the
asking Agent can no longer hear the answer. Bad requests and bad answers change nothing. They are
Interact's records whatever app is in the foreground, and one still pending when its sub-session
ends stays answerable in the main IM.
"""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
from django.db import connection, connections, transaction

from interact.models import Interaction, InteractionStatus
from interact.selectors import workspace_snapshot
from interact.services.interactions import (
    MAX_INPUT_LENGTH,
    MAX_OPTIONS,
    MAX_PROMPT_LENGTH,
    MAX_TIMEOUT_SECONDS,
    answer_interaction,
    dismiss_interaction,
    request_interaction,
)
from runtime.errors import Rejection, RejectionCode
from runtime.models import (
    Agent,
    AgentToken,
    AppInstance,
    AppSession,
    AppSessionState,
    Conversation,
    LifecycleEvent,
    Operation,
)
from runtime.services.agents import create_agent_token, revoke_agent_token, token_digest
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.recovery import settle_due, sweep
from runtime.tool_calls import Accepted
from runtime.transitions import LifecycleState, OperationState
from tests.support.factories import T0, AgentDriver, at

pytestmark = pytest.mark.django_db

OPTIONS = [{"id": "short", "label": "Another 25 minutes"}, {"id": "long", "label": "50 minutes"}]
KINDS: dict[str, list[dict[str, str]] | None] = {"notice": None, "choice": OPTIONS, "confirm": None, "input": None}


@pytest.fixture
def agent_row(user) -> Agent:
    agent, _token = create_agent_token(user=user, name="reference", now=T0)
    return agent


def ask(conversation: Conversation, agent: Agent, kind: str = "confirm", *, now=T0, **fields: Any) -> Interaction:
    fields.setdefault("interaction_id", f"ask-{uuid.uuid4().hex[:8]}")
    fields.setdefault("prompt", "Start another round?")
    fields.setdefault("options", KINDS.get(kind))
    return request_interaction(conversation=conversation, agent=agent, kind=kind, now=now, **fields)


def row(interaction: Interaction) -> tuple[Any, ...]:
    """What a resolution could change."""
    return Interaction.objects.values_list("status", "value", "resolved_at").get(pk=interaction.pk)


def start(agent: AgentDriver, seconds: int = 60, *, now=T0) -> Accepted:
    outcome = agent.start(seconds, activity="homework", now=now)
    assert isinstance(outcome, Accepted), outcome
    return outcome


# --- creation ----------------------------------------------------------------------------------------


@pytest.mark.spec("R-2.1.1", "R-2.1.2")
@pytest.mark.parametrize("kind", list(KINDS))
def test_each_standard_interaction_is_created_pending(conversation, agent_row, kind):
    """A notice, choice, confirm or input request is stored pending, in Interact, in its conversation."""
    interaction = ask(conversation, agent_row, kind, interaction_id="ask-1", timeout_seconds=30)
    stored = Interaction.objects.get(pk=interaction.pk)
    assert stored._meta.app_label == "interact"
    assert (stored.conversation_id, stored.agent_id, stored.kind) == (conversation.id, agent_row.id, kind)
    assert (stored.status, stored.value, stored.resolved_at) == (InteractionStatus.PENDING, None, None)
    assert stored.options == (OPTIONS if kind == "choice" else [])
    assert (stored.created_at, stored.expires_at) == (T0, at(30))
    assert LifecycleEvent.objects.filter(kind="interaction.requested", data__interaction_kind=kind).count() == 1


# --- answers -----------------------------------------------------------------------------------------

GOOD_ANSWERS = [
    ("notice", None),
    ("confirm", True),
    ("confirm", False),
    ("choice", "long"),
    ("input", "reading chapter 3"),
    ("input", "x" * MAX_INPUT_LENGTH),
]
BAD_ANSWERS = [
    ("notice", True),
    ("notice", "ok"),
    ("notice", 0),
    ("notice", {}),
    ("confirm", None),
    ("confirm", "yes"),
    ("confirm", 1),
    ("confirm", 0),
    ("choice", "medium"),
    ("choice", None),
    ("choice", 1),
    ("choice", "Another 25 minutes"),
    ("choice", ["short"]),
    ("choice", {"id": "short"}),
    ("input", None),
    ("input", 5),
    ("input", True),
    ("input", ["text"]),
    ("input", "x" * (MAX_INPUT_LENGTH + 1)),
]


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize(("kind", "value"), GOOD_ANSWERS)
def test_a_valid_answer_resolves_the_interaction(conversation, agent_row, kind, value):
    """An answer valid for the kind (notice: null, confirm: bool, choice: an option id, input: text
    up to the limit) moves it to ``answered`` with that value, once."""
    interaction = ask(conversation, agent_row, kind)
    answered = answer_interaction(
        conversation_ids=[conversation.id], interaction_pk=interaction.pk, value=value, now=at(5)
    )
    assert row(answered) == (InteractionStatus.ANSWERED, value, at(5))
    assert LifecycleEvent.objects.filter(kind="interaction.answered").count() == 1


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize(("kind", "value"), BAD_ANSWERS)
def test_an_invalid_answer_is_refused_and_changes_nothing(conversation, agent_row, kind, value):
    """An answer of the wrong type or outside the options is ``invalid_answer``; it stays pending."""
    interaction = ask(conversation, agent_row, kind)
    with pytest.raises(Rejection) as excinfo:
        answer_interaction(conversation_ids=[conversation.id], interaction_pk=interaction.pk, value=value, now=at(5))
    assert excinfo.value.code == RejectionCode.INVALID_ANSWER
    assert row(interaction) == (InteractionStatus.PENDING, None, None)
    assert not LifecycleEvent.objects.filter(kind="interaction.answered").exists()


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize("first", ["answer", "dismiss"])
@pytest.mark.parametrize("second", ["answer", "dismiss"])
def test_an_interaction_is_resolved_exactly_once(conversation, agent_row, first, second):
    """After an answer or a dismissal, any further answer or dismissal is ``interaction_already_resolved``
    and the first resolution stands."""
    interaction = ask(conversation, agent_row, "confirm")

    def resolve(how: str, value: bool, now) -> Interaction:
        if how == "answer":
            return answer_interaction(
                conversation_ids=[conversation.id], interaction_pk=interaction.pk, value=value, now=now
            )
        return dismiss_interaction(conversation_ids=[conversation.id], interaction_pk=interaction.pk, now=now)

    resolve(first, True, at(5))
    settled = row(interaction)
    expected_status = InteractionStatus.ANSWERED if first == "answer" else InteractionStatus.DISMISSED
    assert settled == (expected_status, True if first == "answer" else None, at(5))

    with pytest.raises(Rejection) as excinfo:
        resolve(second, False, at(6))
    assert excinfo.value.code == RejectionCode.INTERACTION_RESOLVED
    assert row(interaction) == settled
    assert LifecycleEvent.objects.filter(kind__in=["interaction.answered", "interaction.dismissed"]).count() == 1


@pytest.mark.spec("R-2.1.2")
@pytest.mark.parametrize("pk", ["random", "not-a-uuid", "foreign"])
def test_an_interaction_outside_the_callers_conversations_is_unknown(conversation, agent_row, other_user, pk):
    """Answering or dismissing an id that is not one of the caller's conversations' interactions is
    ``unknown_interaction`` and changes nothing (another user's stays pending)."""
    foreign_conversation = conversation_get_or_create_default(user=other_user)
    bob, _ = create_agent_token(user=other_user, name="bob's agent", now=T0)
    foreign = ask(foreign_conversation, bob, "confirm")
    target = {"random": uuid.uuid4(), "not-a-uuid": "ask-1", "foreign": foreign.pk}[pk]

    for attempt in (
        lambda: answer_interaction(conversation_ids=[conversation.id], interaction_pk=target, value=True, now=at(1)),
        lambda: dismiss_interaction(conversation_ids=[conversation.id], interaction_pk=target, now=at(1)),
    ):
        with pytest.raises(Rejection) as excinfo:
            attempt()
        assert excinfo.value.code == RejectionCode.UNKNOWN_INTERACTION
    assert row(foreign) == (InteractionStatus.PENDING, None, None)


# --- request validation ----------------------------------------------------------------------------


def _options(count: int) -> list[dict[str, str]]:
    return [{"id": f"o{i}", "label": f"Option {i}"} for i in range(count)]


BAD_REQUESTS = [
    pytest.param({"kind": "poll"}, id="unknown-kind"),
    pytest.param({"kind": None}, id="null-kind"),
    pytest.param({"kind": ["confirm"]}, id="list-kind"),
    pytest.param({"kind": "confirm", "options": OPTIONS}, id="options-on-confirm"),
    pytest.param({"kind": "notice", "options": OPTIONS}, id="options-on-notice"),
    pytest.param({"kind": "input", "options": OPTIONS}, id="options-on-input"),
    pytest.param({"kind": "choice", "options": None}, id="choice-without-options"),
    pytest.param({"kind": "choice", "options": _options(1)}, id="choice-one-option"),
    pytest.param({"kind": "choice", "options": _options(MAX_OPTIONS + 1)}, id="choice-too-many"),
    pytest.param({"kind": "choice", "options": [*OPTIONS, {"id": "short", "label": "again"}]}, id="duplicate-id"),
    pytest.param({"kind": "choice", "options": ["short", "long"]}, id="option-not-object"),
    pytest.param({"kind": "choice", "options": [{"id": "a"}, {"id": "b", "label": "B"}]}, id="option-no-label"),
    pytest.param({"kind": "choice", "options": [{"id": "a", "label": "A", "x": 1}, *OPTIONS]}, id="option-extra"),
    pytest.param({"kind": "choice", "options": [{"id": "", "label": "A"}, *OPTIONS]}, id="option-empty-id"),
    pytest.param({"kind": "choice", "options": [{"id": 1, "label": "A"}, *OPTIONS]}, id="option-int-id"),
    pytest.param({"kind": "choice", "options": [{"id": "a", "label": "L" * 201}, *OPTIONS]}, id="label-too-long"),
    pytest.param({"kind": "choice", "options": {"a": "A", "b": "B"}}, id="options-object"),
    pytest.param({"timeout_seconds": True}, id="timeout-bool"),
    pytest.param({"timeout_seconds": 0}, id="timeout-zero"),
    pytest.param({"timeout_seconds": -5}, id="timeout-negative"),
    pytest.param({"timeout_seconds": MAX_TIMEOUT_SECONDS + 1}, id="timeout-too-big"),
    pytest.param({"timeout_seconds": 1.5}, id="timeout-float"),
    pytest.param({"timeout_seconds": "30"}, id="timeout-string"),
    pytest.param({"prompt": ""}, id="prompt-empty"),
    pytest.param({"prompt": "   "}, id="prompt-blank"),
    pytest.param({"prompt": "p" * (MAX_PROMPT_LENGTH + 1)}, id="prompt-too-long"),
    pytest.param({"prompt": None}, id="prompt-null"),
    pytest.param({"interaction_id": ""}, id="id-empty"),
    pytest.param({"interaction_id": "i" * 129}, id="id-too-long"),
    pytest.param({"interaction_id": 7}, id="id-int"),
    pytest.param({"interaction_id": None}, id="id-null"),
]


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize("overrides", BAD_REQUESTS)
def test_a_bad_request_is_refused_and_creates_nothing(conversation, agent_row, overrides):
    """A bad kind, options where none belong, a malformed option list, a bad timeout, prompt or id
    is ``invalid_arguments``, and no interaction is created."""
    fields: dict[str, Any] = {
        "interaction_id": "ask-1",
        "kind": "confirm",
        "prompt": "Start another round?",
        "options": None,
        "timeout_seconds": None,
    }
    fields.update(overrides)
    with pytest.raises(Rejection) as excinfo:
        request_interaction(conversation=conversation, agent=agent_row, now=T0, **fields)
    assert excinfo.value.code == RejectionCode.INVALID_ARGUMENTS
    assert Interaction.objects.count() == 0
    assert not LifecycleEvent.objects.filter(kind="interaction.requested").exists()


@pytest.mark.spec("R-2.1.1")
def test_requests_at_the_limits_are_accepted(conversation, agent_row):
    """The boundaries themselves are valid: 2 and 10 options, a 1 s and a 24 h timeout, a prompt of
    exactly the limit, and an empty option list for a non-choice."""
    ask(conversation, agent_row, "choice", options=_options(2), timeout_seconds=1)
    ask(conversation, agent_row, "choice", options=_options(MAX_OPTIONS), timeout_seconds=MAX_TIMEOUT_SECONDS)
    ask(conversation, agent_row, "input", prompt="p" * MAX_PROMPT_LENGTH, options=[])
    assert Interaction.objects.count() == 3


# --- idempotency ---------------------------------------------------------------------------------


@pytest.mark.spec("R-2.1.1")
def test_a_retried_request_returns_the_same_interaction(conversation, agent_row):
    """The same interaction_id with the same content is the same row, even after it was answered."""
    first = ask(conversation, agent_row, "choice", interaction_id="again")
    retry = ask(conversation, agent_row, "choice", interaction_id="again", now=at(3))
    assert retry.pk == first.pk
    answer_interaction(conversation_ids=[conversation.id], interaction_pk=first.pk, value="short", now=at(4))
    late = ask(conversation, agent_row, "choice", interaction_id="again", now=at(9))
    assert (late.pk, late.status, late.value) == (first.pk, InteractionStatus.ANSWERED, "short")
    assert Interaction.objects.count() == 1
    assert LifecycleEvent.objects.filter(kind="interaction.requested").count() == 1


@pytest.mark.spec("R-2.1.1")
@pytest.mark.parametrize(
    "changed",
    [
        pytest.param({"prompt": "Something else?"}, id="prompt"),
        pytest.param({"kind": "confirm", "options": None}, id="kind"),
        pytest.param({"options": list(reversed(OPTIONS))}, id="options"),
    ],
)
def test_reusing_an_interaction_id_for_other_content_is_refused(conversation, agent_row, changed):
    """The same interaction_id with another kind, prompt or options is ``idempotency_key_reused``;
    the first interaction is unchanged."""
    first = ask(conversation, agent_row, "choice", interaction_id="again")
    fields: dict[str, Any] = {"kind": "choice", "interaction_id": "again", **changed}
    with pytest.raises(Rejection) as excinfo:
        ask(conversation, agent_row, now=at(3), **fields)
    assert excinfo.value.code == RejectionCode.IDEMPOTENCY_KEY_REUSED
    stored = Interaction.objects.get()
    assert (stored.pk, stored.kind, stored.prompt, stored.options) == (first.pk, "choice", first.prompt, OPTIONS)


@pytest.mark.spec("R-2.1.2")
def test_interaction_ids_are_scoped_to_their_conversation(conversation, agent_row, other_user):
    """The same interaction_id in another conversation is another interaction."""
    bob, _ = create_agent_token(user=other_user, name="bob's agent", now=T0)
    mine = ask(conversation, agent_row, interaction_id="same")
    theirs = ask(conversation_get_or_create_default(user=other_user), bob, interaction_id="same", prompt="Other?")
    assert mine.pk != theirs.pk
    assert Interaction.objects.count() == 2


# --- questions stay few and current: a newer one of the same topic supersedes ---------------------


@pytest.mark.spec("R-4.3.5", "R-2.1.1")
def test_a_newer_question_of_the_same_topic_supersedes_the_pending_one_exactly_once(conversation, agent_row):
    """Ten "another round?" asked with none answered leave one pending, the newest; each older one
    is resolved ``superseded`` once (one event each), and answering one is refused with a clear
    detail and changes nothing."""
    asked = [ask(conversation, agent_row, interaction_id=f"again.en.60.{n}", now=at(n)) for n in range(10)]
    assert [row(i)[0] for i in asked] == [InteractionStatus.SUPERSEDED] * 9 + [InteractionStatus.PENDING]
    assert [row(i)[2] for i in asked[:9]] == [at(n + 1) for n in range(9)]
    assert LifecycleEvent.objects.filter(kind="interaction.superseded").count() == 9
    snapshot = workspace_snapshot(user=conversation.owner, conversation_id=conversation.id, now=at(10))
    assert [i["interaction_id"] for i in snapshot["pending_interactions"]] == ["again.en.60.9"]

    with pytest.raises(Rejection) as excinfo:
        answer_interaction(conversation_ids=[conversation.id], interaction_pk=asked[0].pk, value=True, now=at(11))
    assert excinfo.value.code == RejectionCode.INTERACTION_RESOLVED
    assert "superseded" in excinfo.value.detail and "newer question" in excinfo.value.detail
    assert row(asked[0]) == (InteractionStatus.SUPERSEDED, None, at(1))
    # A retry of the newest is the same row and supersedes nothing more.
    assert ask(conversation, agent_row, interaction_id="again.en.60.9", now=at(12)).pk == asked[-1].pk
    assert LifecycleEvent.objects.filter(kind="interaction.superseded").count() == 9


@pytest.mark.spec("R-4.3.5")
def test_only_the_same_agents_pending_questions_of_that_topic_are_superseded(conversation, agent_row, user):
    """Another topic, an id without a topic, another Agent's question and an answered one stay as they were."""
    other_agent, _ = create_agent_token(user=user, name="helper", now=T0)
    answered = ask(conversation, agent_row, interaction_id="again.en.60.a", now=at(0))
    answer_interaction(conversation_ids=[conversation.id], interaction_pk=answered.pk, value=False, now=at(0.5))
    other_topic = ask(conversation, agent_row, interaction_id="note.1", now=at(1))
    no_topic = ask(conversation, agent_row, interaction_id="again", now=at(2))
    theirs = ask(conversation, other_agent, interaction_id="again.en.60.b", now=at(3))
    ask(conversation, agent_row, interaction_id="again.en.60.c", now=at(4))
    assert row(answered)[0] == InteractionStatus.ANSWERED
    assert row(other_topic)[0] == row(no_topic)[0] == row(theirs)[0] == InteractionStatus.PENDING
    assert LifecycleEvent.objects.filter(kind="interaction.superseded").count() == 0


# --- Runtime resolutions: timeout and failure --------------------------------------------------------


@pytest.mark.spec("R-4.3.5")
def test_the_sweep_times_an_interaction_out_once(conversation, agent_row):
    """The sweep leaves it pending before ``expires_at`` and moves it to ``timed_out`` once at it;
    later sweeps and late answers change nothing. One without a timeout never expires."""
    timed = ask(conversation, agent_row, "confirm", timeout_seconds=30)
    forever = ask(conversation, agent_row, "confirm")

    assert sweep(now=at(29.999)).swept["interactions_timed_out"] == 0
    assert row(timed) == (InteractionStatus.PENDING, None, None)
    assert sweep(now=at(30)).swept["interactions_timed_out"] == 1
    assert row(timed) == (InteractionStatus.TIMED_OUT, None, at(30))
    assert sweep(now=at(3600)).swept["interactions_timed_out"] == 0

    with pytest.raises(Rejection) as excinfo:
        answer_interaction(conversation_ids=[conversation.id], interaction_pk=timed.pk, value=True, now=at(31))
    assert excinfo.value.code == RejectionCode.INTERACTION_RESOLVED
    assert row(timed) == (InteractionStatus.TIMED_OUT, None, at(30))
    assert row(forever) == (InteractionStatus.PENDING, None, None)
    assert LifecycleEvent.objects.filter(kind="interaction.timed_out").count() == 1


@pytest.mark.spec("R-4.3.5")
def test_revoking_the_agents_last_token_fails_its_pending_interactions(conversation, user, agent_row, other_user):
    """While the Agent still holds a valid token nothing changes; revoking its last token fails its
    pending interactions (answered ones and other Agents' stay as they are)."""
    _, second_token = create_agent_token(user=user, name="reference", now=T0)  # same Agent, a second token
    other_agent, _ = create_agent_token(user=user, name="another", now=T0)
    pending = ask(conversation, agent_row, "confirm")
    answered = ask(conversation, agent_row, "confirm")
    answer_interaction(conversation_ids=[conversation.id], interaction_pk=answered.pk, value=True, now=at(1))
    someone_elses = ask(conversation, other_agent, "confirm")

    first, second = AgentToken.objects.filter(agent=agent_row).order_by("id")
    assert second.digest == token_digest(second_token)
    assert revoke_agent_token(token_id=first.pk, now=at(10))
    assert row(pending) == (InteractionStatus.PENDING, None, None)

    assert revoke_agent_token(token_id=second.pk, now=at(20))
    assert row(pending) == (InteractionStatus.FAILED, None, at(20))
    assert row(answered) == (InteractionStatus.ANSWERED, True, at(1))
    assert row(someone_elses) == (InteractionStatus.PENDING, None, None)
    failed = LifecycleEvent.objects.get(kind="interaction.failed")
    assert (failed.data["interaction_id"], failed.data["reason"]) == (pending.interaction_id, "agent_revoked")

    assert not revoke_agent_token(token_id=second.pk, now=at(30))  # again: nothing more happens
    assert LifecycleEvent.objects.filter(kind="interaction.failed").count() == 1


# --- owned by Interact, whatever is in front -------------------------------------------------------


@pytest.mark.spec("R-4.3.4", "R-2.1.2")
def test_an_interaction_over_a_foreground_pomodoro_stays_interacts(conversation, agent, agent_row):
    """Asked and answered while Pomodoro is in the foreground, an interaction is an Interact record
    of the conversation, and neither asking nor answering touches the focus or the lifecycle."""
    started = start(agent)
    pomodoro = AppInstance.objects.get(pk=started.instance_id)
    assert pomodoro.lifecycle_state == LifecycleState.FOREGROUND

    def runtime_world() -> list[Any]:
        return [
            list(AppInstance.objects.order_by("id").values_list("id", "lifecycle_state", "focus_seq", "closed_at")),
            list(Operation.objects.values_list("id", "state", "ends_at")),
            list(AppSession.objects.values_list("id", "state")),
        ]

    before = runtime_world()
    interaction = ask(
        conversation, agent_row, "input", prompt="What are you reading?", app_session_id=str(started.app_session_id)
    )
    assert runtime_world() == before
    stored = Interaction.objects.get(pk=interaction.pk)
    assert stored._meta.app_label == "interact"
    assert (stored.conversation_id, stored.app_session_id) == (conversation.id, started.app_session_id)
    assert not hasattr(pomodoro, "interactions")  # no relation from the app's instance to it

    answer_interaction(conversation_ids=[conversation.id], interaction_pk=interaction.pk, value="Dune", now=at(10))
    assert runtime_world() == before
    assert Operation.objects.get(pk=started.operation_id).state == OperationState.RUNNING


@pytest.mark.spec("R-4.3.5")
def test_an_interaction_pending_when_its_block_ends_stays_answerable_in_the_main_im(
    user, conversation, agent, agent_row
):
    """Asked in a block that then ends (the focus completes), an interaction stays pending and
    answerable; the workspace shows it in the main timeline, never in the ended block, while one
    answered before the end stays in the block. No new interaction may be asked in the ended block."""
    started = start(agent)
    block = str(started.app_session_id)
    early = ask(conversation, agent_row, "confirm", prompt="Mute the phone?", app_session_id=block, now=at(1))
    answer_interaction(conversation_ids=[conversation.id], interaction_pk=early.pk, value=True, now=at(2))
    late = ask(conversation, agent_row, "confirm", prompt="Another round after this?", app_session_id=block, now=at(3))

    assert settle_due(now=at(60)).settled == [started.operation_id]
    assert AppSession.objects.get(pk=block).state == AppSessionState.ENDED
    assert row(late) == (InteractionStatus.PENDING, None, None)

    def placement(snapshot: dict[str, Any]) -> tuple[list[str], list[str], list[str]]:
        (block_entry,) = [e for e in snapshot["timeline"] if e["type"] == "block"]
        in_block = [e["id"] for e in block_entry["entries"] if e["type"] == "interaction"]
        in_main = [e["id"] for e in snapshot["timeline"] if e["type"] == "interaction"]
        return in_block, in_main, [i["id"] for i in snapshot["pending_interactions"]]

    snapshot = workspace_snapshot(user=user, conversation_id=conversation.id, now=at(61))
    assert placement(snapshot) == ([str(early.pk)], [str(late.pk)], [str(late.pk)])

    with pytest.raises(Rejection) as excinfo:
        ask(conversation, agent_row, "notice", prompt="Done!", app_session_id=block, now=at(62))
    assert excinfo.value.code == RejectionCode.APP_SESSION_ENDED
    assert Interaction.objects.count() == 2

    answer_interaction(conversation_ids=[conversation.id], interaction_pk=late.pk, value=False, now=at(70))
    assert row(late) == (InteractionStatus.ANSWERED, False, at(70))
    snapshot = workspace_snapshot(user=user, conversation_id=conversation.id, now=at(71))
    assert placement(snapshot) == ([str(early.pk)], [str(late.pk)], [])
    assert AppSession.objects.get(pk=block).ended_at == at(60)  # the block itself is untouched


# --- the same request twice at once ------------------------------------------------------------------


def _waiting_on_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        found = cursor.fetchone()
    return found is not None and found[0] == "Lock"


@pytest.mark.django_db(transaction=True)
@pytest.mark.spec("R-2.1.1")
@pytest.mark.postgres(reason="it sees the racer wait on the row lock in pg_stat_activity")
@pytest.mark.parametrize(
    ("same_content", "same_agent"), [(True, True), (False, True), (True, False)], ids=["retry", "reuse", "other-agent"]
)
def test_a_request_racing_its_own_retry_is_decided_once(user, same_content, same_agent):
    """Two requests with one interaction_id at once (an Agent retrying on another connection) make one
    interaction: the later one waits for the first to commit and then gets that same row, or
    ``idempotency_key_reused`` if its content differs or another Agent of the user sent it — never
    an internal error, and never the first Agent's interaction."""
    conversation = conversation_get_or_create_default(user=user)
    agent, _ = create_agent_token(user=user, name="reference", now=T0)
    racing_agent = agent if same_agent else create_agent_token(user=user, name="coach", now=T0)[0]
    first_in, may_commit = threading.Event(), threading.Event()
    outcome: dict[str, Any] = {}

    def first() -> None:
        try:
            with transaction.atomic():
                outcome["first"] = ask(conversation, agent, "confirm", interaction_id="twice")
                first_in.set()
                assert may_commit.wait(10)
        finally:
            connections.close_all()

    def second() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            outcome["pid"] = cursor.fetchone()[0]
        try:
            prompt = "Start another round?" if same_content else "Something else?"
            outcome["second"] = ask(
                conversation, racing_agent, "confirm", interaction_id="twice", prompt=prompt, now=at(1)
            )
        except Exception as error:  # recorded, asserted below
            outcome["error"] = error
        finally:
            connections.close_all()

    holder = threading.Thread(target=first)
    holder.start()
    try:
        assert first_in.wait(10)
        racer = threading.Thread(target=second)
        racer.start()
        deadline = time.monotonic() + 10
        while racer.is_alive() and not ("pid" in outcome and _waiting_on_a_lock(outcome["pid"])):
            assert time.monotonic() < deadline, "the second request neither finished nor waited"
            time.sleep(0.01)
    finally:
        may_commit.set()
        holder.join(10)
    racer.join(10)

    assert Interaction.objects.count() == 1
    if same_content and same_agent:
        assert "error" not in outcome, outcome.get("error")
        assert outcome["second"].pk == outcome["first"].pk
    else:
        assert isinstance(outcome.get("error"), Rejection), outcome
        assert outcome["error"].code == RejectionCode.IDEMPOTENCY_KEY_REUSED
