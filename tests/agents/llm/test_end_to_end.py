"""The LLM Agent against a live Daphne and a fake OpenAI-compatible server on loopback.

The person's side is played through the Interact services (their hints reach Daphne over the
Redis channel layer); the model's side is a script of chat-completion replies, and each request
the Agent made is recorded, so the tests check what was sent (the tools, the ``tool`` messages,
the history) as well as what happened (rows in PostgreSQL, messages in the IM), polled with deadlines.
"""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from interact.models import AuthorKind, Interaction, InteractionStatus, Message
from interact.services.messages import post_human_message
from runtime.inventory import inventory_for_scope
from runtime.models import AppInstance, Operation, OutboxEntry, ToolCall
from runtime.transitions import OperationState
from tests.agents.llm.conftest import API_KEY, INSTALLED_EN, MODEL
from tests.agents.llm.fake_openai import call, error, held_back, text, tool_calls
from tests.support.factories import activity_of, planned_seconds
from tests.support.processes import manage_py_argv


def say(conversation, user, words: str) -> None:
    post_human_message(conversation=conversation, user_id=user.id, text=words, now=timezone.now())


def agent_message(conversation, words: str, *, in_block: bool | None = None, startswith: bool = False):
    messages = Message.objects.filter(conversation=conversation, author_kind=AuthorKind.AGENT)
    messages = messages.filter(text__startswith=words) if startswith else messages.filter(text=words)
    if in_block is not None:
        messages = messages.filter(app_session__isnull=not in_block)
    return messages.first()


def agent_texts(conversation) -> list[str]:
    return list(
        Message.objects.filter(conversation=conversation, author_kind=AuthorKind.AGENT)
        .order_by("created_at", "pk")
        .values_list("text", flat=True)
    )


def tool_message(request) -> dict:
    last = request.messages[-1]
    assert last["role"] == "tool", request.messages
    return {"tool_call_id": last["tool_call_id"], **json.loads(last["content"])}


@pytest.mark.spec("R-2.1.1", "R-4.3.3", "R-2.2.8")
def test_the_command_selects_the_llm_agent_which_starts_a_focus_and_reports_its_result(
    live, agent_processes, fake_openai, user, conversation
):
    """With LINEUP_LLM_BASE_URL and LINEUP_LLM_MODEL set, run_reference_agent runs the LLM Agent: the
    model's pomodoro__start call starts a real focus, the tool message carries the operation, the
    model's text goes into the sub-session block, the result is reported once in the main IM and
    acked, and the next turn's request holds the history with the result as a note."""
    fake_openai.script(
        tool_calls(call("pomodoro__start", '{"duration_seconds": 2, "activity": "reading"}', "call_a")),
        text("Started a 2 second reading focus."),
        text("You're welcome!"),
    )
    agent = agent_processes.start(
        "llm-agent",
        manage_py_argv("run_reference_agent", "--url", live.url, "--user", user.username),
        env={
            **live.env,
            "LINEUP_LLM_BASE_URL": fake_openai.base_url,
            "LINEUP_LLM_MODEL": MODEL,
            "LINEUP_LLM_API_KEY": API_KEY,
            "LINEUP_LOG_FORMAT": "json",
        },
        ready=r"reference_agent\.connected",
    )
    selected = [json.loads(line) for line in agent.log_text().splitlines() if "builtin_agent.selected" in line]
    assert [(s["kind"], s["model"], s["api_key"]) for s in selected] == [("llm", MODEL, "set")]
    assert API_KEY not in agent.log_text()

    say(conversation, user, "start a 2 second reading focus")
    started = live.wait(
        lambda: agent_message(conversation, "Started a 2 second reading focus.", in_block=True),
        "the reply in the block",
    )
    operation = Operation.objects.get(conversation=conversation)
    assert (planned_seconds(operation), activity_of(operation)) == (2, "reading")
    assert started.app_session_id == operation.app_session_id
    assert ToolCall.objects.get(conversation=conversation).source_tool_call_id.startswith("llm.en.")

    live.wait(lambda: agent_message(conversation, "Focus complete: 2 seconds of reading.", in_block=False), "report")
    live.wait(
        lambda: Interaction.objects.filter(
            conversation=conversation, prompt="Start another 2-second round?", status=InteractionStatus.PENDING
        ).exists(),
        "the another-round confirm",
    )
    live.wait(lambda: OutboxEntry.objects.filter(conversation=conversation, acked_at__isnull=False).exists(), "ack")

    say(conversation, user, "thanks")
    live.wait(lambda: agent_message(conversation, "You're welcome!", in_block=False), "the second turn's reply")

    first, second, third = fake_openai.requests
    assert first.path == "/v1/chat/completions"
    assert first.headers["authorization"] == f"Bearer {API_KEY}"
    assert first.body["model"] == MODEL
    offered = {tool["function"]["name"]: tool for tool in first.body["tools"]}
    # The Inventory's tools, and the Agent's own status function ("how long is left?").
    assert set(offered) == {
        "notes__append",
        "notes__read",
        "pomodoro__start",
        "pomodoro__interrupt",
        "quiz__start",
        "quiz__stop",
        "lineup_status",
    }
    start_descriptor = inventory_for_scope("personal").get("pomodoro.start")
    assert offered["pomodoro__start"]["type"] == "function"
    assert offered["pomodoro__start"]["function"]["parameters"] == start_descriptor.input_schema
    assert [m["role"] for m in first.messages] == ["system", "user"]
    assert first.messages[-1]["content"] == "start a 2 second reading focus"

    assistant = second.messages[-2]
    assert assistant["role"] == "assistant" and [c["id"] for c in assistant["tool_calls"]] == ["call_a"]
    assert assistant["tool_calls"][0]["function"]["name"] == "pomodoro__start"
    assert tool_message(second) == {
        "tool_call_id": "call_a",
        "status": "started",
        "operation_id": str(operation.id),
        "replayed": False,
    }

    roles_and_text = [(m["role"], m.get("content")) for m in third.messages]
    assert roles_and_text[1] == ("user", "start a 2 second reading focus")  # the earlier turn is kept
    assert roles_and_text[-3:] == [
        ("assistant", "Started a 2 second reading focus."),
        ("assistant", "Focus complete: 2 seconds of reading."),  # the result, as a note
        ("user", "thanks"),
    ]
    assert agent_texts(conversation).count("Focus complete: 2 seconds of reading.") == 1


@pytest.mark.spec("R-2.2.3")
def test_malformed_tool_call_arguments_are_reported_in_the_im_and_start_nothing(
    live, fake_openai, run_llm_agent, user, conversation
):
    """Arguments that are not JSON never reach LineUp; JSON with a wrong type is refused by the Tool
    Router (invalid_arguments). Both get a clear IM message before the model's own reply, the model
    is told through the tool message, and no tool call, instance or operation exists afterwards."""
    fake_openai.script(
        tool_calls(call("pomodoro__start", '{"duration_seconds": 1500', "bad_json")),
        text("Sorry, I got that wrong."),
        tool_calls(call("pomodoro__start", '{"duration_seconds": "twenty five minutes"}', "bad_type")),
        text("Sorry again."),
    )
    run_llm_agent()

    say(conversation, user, "focus 25 minutes")
    live.wait(lambda: agent_message(conversation, "Sorry, I got that wrong."), "the model's first reply")
    # The person reads what happened in their words; why (the JSON error) is the model's to know.
    not_json = (
        "I couldn't do that: the language model asked for pomodoro.start in a form I can't use. "
        "Nothing was started or changed."
    )
    assert agent_texts(conversation) == [not_json, "Sorry, I got that wrong."]
    told = tool_message(fake_openai.requests[1])
    assert (told["tool_call_id"], told["error"]) == ("bad_json", "invalid_arguments")
    assert "Expecting ',' delimiter at character 25" in told["detail"]
    assert not ToolCall.objects.exists()  # nothing was sent to the Tool Router at all

    say(conversation, user, "focus twenty five minutes")
    live.wait(lambda: agent_message(conversation, "Sorry again."), "the model's second reply")
    assert agent_texts(conversation)[2] == (
        "I couldn't do that: LineUp refused what the language model asked of pomodoro.start. "
        "Nothing was started or changed."
    )
    told = tool_message(fake_openai.requests[3])
    assert (told["tool_call_id"], told["error"]) == ("bad_type", "invalid_arguments")
    assert "duration_seconds" in told["detail"]

    assert not Operation.objects.exists()
    assert not AppInstance.objects.filter(app_id="pomodoro").exists()
    assert not ToolCall.objects.exists()  # a rejected call is not stored


@pytest.mark.spec("R-2.1.1")
def test_model_server_errors_and_timeouts_are_reported_with_bounded_retries(
    live, fake_openai, run_llm_agent, user, conversation
):
    """A 500 and a timeout are each retried once (the SDK's max_retries=1), then reported in the IM;
    the Agent stays connected and answers the next message. A failure after a start was accepted
    still announces the running focus; an empty-argument pomodoro__interrupt stops it."""
    fake_openai.script(
        error(500, "model crashed"),
        error(500, "model crashed"),
        held_back(text("too late"), 4.0),
        held_back(text("too late"), 4.0),
        text("Back again."),
        tool_calls(call("pomodoro__start", '{"duration_seconds": 600}', "start")),
        error(503, "overloaded"),
        error(503, "overloaded"),
        tool_calls(call("pomodoro__interrupt", "", "stop")),
        text("Stopped."),
    )
    supervisor = run_llm_agent(max_retries=1, timeout_seconds=1.0)

    say(conversation, user, "hello")
    # The server's own words ("model crashed") are logged, never shown.
    refused = "I couldn't do that: the language model server had a problem. Nothing was done; please try again."
    refused += INSTALLED_EN  # what can be asked for when the model is back
    live.wait(lambda: agent_message(conversation, refused), "the 500 reported")
    assert fake_openai.request_count() == 2

    say(conversation, user, "hello?")
    late = "I couldn't do that: the language model didn't answer in time. Nothing was done; please try again."
    late += INSTALLED_EN
    live.wait(lambda: agent_message(conversation, late), "the timeout reported")
    assert fake_openai.request_count() == 4

    say(conversation, user, "are you there?")
    live.wait(lambda: agent_message(conversation, "Back again."), "the next turn answered")

    say(conversation, user, "focus 10 minutes")
    live.wait(
        lambda: agent_message(
            conversation, "Focus started: 10 minutes. I'll let you know when it's done.", in_block=True
        ),
        "the running focus announced (in the app's declared words) although the model failed",
    )
    assert agent_message(
        conversation,
        "I couldn't do that: the language model server had a problem. What I did before it stands; "
        "its results follow here.",
    )
    assert not [t for t in agent_texts(conversation) if "overloaded" in t or "crashed" in t]
    assert Operation.objects.get(conversation=conversation).state == OperationState.RUNNING

    say(conversation, user, "stop")
    live.wait(lambda: agent_message(conversation, "Stopped."), "the stop answered")
    live.wait(lambda: agent_message(conversation, "Focus stopped after", startswith=True, in_block=False), "the result")
    operation = Operation.objects.get(conversation=conversation)
    assert (operation.state, operation.interruption_reason) == (OperationState.INTERRUPTED, "agent_interrupt")
    assert tool_message(fake_openai.requests[-1])["status"] == "interrupted"
    assert supervisor.clients[user.pk].connections == 1  # never crashed into a reconnect
