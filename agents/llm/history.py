"""One conversation's context for the model, kept bounded (pure, no I/O).

History is a list of *turns*; a turn starts with the person's message and holds the assistant's
tool calls, the ``tool`` messages answering them and the final reply. Forgetting happens a whole
turn at a time (oldest first), so an assistant message with ``tool_calls`` is never kept without
the ``tool`` messages that must follow it — servers refuse such a history.

Things the Agent said outside a turn (a focus result reported when it ended) are *notes*: they are
added as assistant messages at the start of the next turn, so they never land between a turn's
tool calls and its tool messages.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from typing import Any

MAX_TURNS = 12  # a focus conversation needs little context; small prompts keep small models quick
MAX_CHARS = 24_000  # ~6k tokens: well inside any chat model's context window
MAX_NOTES = 8

Message = dict[str, Any]


def _size(turn: list[Message]) -> int:
    return sum(len(json.dumps(message, ensure_ascii=False)) for message in turn)


class History:
    def __init__(self, *, max_turns: int = MAX_TURNS, max_chars: int = MAX_CHARS) -> None:
        self.max_turns = max_turns
        self.max_chars = max_chars
        self._turns: deque[list[Message]] = deque()
        self._notes: deque[str] = deque(maxlen=MAX_NOTES)

    def note(self, text: str) -> None:
        """Something the Agent said in the IM outside a turn; it joins the next turn."""
        self._notes.append(text)

    def begin_turn(self, user_text: str) -> list[Message]:
        """Start a turn with the person's message; append the turn's later messages to the list returned."""
        turn: list[Message] = [{"role": "assistant", "content": note} for note in self._notes]
        self._notes.clear()
        turn.append({"role": "user", "content": user_text})
        self._turns.append(turn)
        self._trim()
        return turn

    def messages(self, system_prompt: str) -> list[Message]:
        """What the model is sent: the system prompt, then the kept turns in order."""
        self._trim()
        return [{"role": "system", "content": system_prompt}, *(m for turn in self._turns for m in turn)]

    def newest(self, system_prompt: str) -> list[Message]:
        """The least a request can hold: the system prompt and the current turn."""
        return [{"role": "system", "content": system_prompt}, *(self._turns[-1] if self._turns else [])]

    def fitted(
        self, system_prompt: str, measure: Callable[[list[Message]], int], budget: int | None
    ) -> list[Message] | None:
        """``messages``, with the oldest turns forgotten until ``measure`` of them is within ``budget``.

        None when the current turn alone (with the system prompt) is over it: nothing the history
        can drop makes the request fit. ``budget`` None: no limit known, only the usual bounds apply.
        """
        while True:
            messages = self.messages(system_prompt)
            if budget is None or measure(messages) <= budget:
                return messages
            if len(self._turns) <= 1:
                return None
            self._turns.popleft()

    def _trim(self) -> None:
        # The newest turn always stays, however long: it is the one being answered.
        while len(self._turns) > 1 and (
            len(self._turns) > self.max_turns or sum(_size(t) for t in self._turns) > self.max_chars
        ):
            self._turns.popleft()

    def __len__(self) -> int:
        return len(self._turns)
