"""agents.llm.history: bounded whole turns, notes between turns."""

from __future__ import annotations

from agents.llm.history import History


def roles(messages):
    return [m["role"] for m in messages]


def test_the_oldest_turns_are_forgotten_whole_beyond_the_turn_limit():
    history = History(max_turns=2)
    for n in range(4):
        turn = history.begin_turn(f"message {n}")
        turn.append({"role": "assistant", "content": None, "tool_calls": [{"id": f"c{n}"}]})
        turn.append({"role": "tool", "tool_call_id": f"c{n}", "content": "{}"})
        turn.append({"role": "assistant", "content": f"reply {n}"})
    messages = history.messages("be brief")
    assert len(history) == 2
    assert messages[0] == {"role": "system", "content": "be brief"}
    assert [m["content"] for m in messages if m["role"] == "user"] == ["message 2", "message 3"]
    assert roles(messages[1:]) == ["user", "assistant", "tool", "assistant"] * 2  # never a call without its answer


def test_the_character_budget_drops_old_turns_but_never_the_current_one():
    history = History(max_turns=10, max_chars=500)
    history.begin_turn("x" * 300)
    history.begin_turn("y" * 300)
    assert [m["content"] for m in history.messages("s")[1:]] == ["y" * 300]
    history.begin_turn("z" * 2000)  # alone over budget: kept, it is the one being answered
    assert [m["content"] for m in history.messages("s")[1:]] == ["z" * 2000]


def test_notes_join_the_next_turn_before_the_persons_message():
    history = History()
    turn = history.begin_turn("start a focus")
    history.note("Focus complete: 25 minutes.")  # arrives while the turn is still open
    turn.append({"role": "assistant", "content": "Started."})
    history.begin_turn("thanks")
    assert [(m["role"], m["content"]) for m in history.messages("s")[1:]] == [
        ("user", "start a focus"),
        ("assistant", "Started."),
        ("assistant", "Focus complete: 25 minutes."),
        ("user", "thanks"),
    ]
