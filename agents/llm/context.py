"""How much of the model server's context a request takes, and what its limit is (pure, no I/O).

A model server has a fixed context (llama.cpp's ``--ctx-size``/``n_ctx``, 2 048 tokens in Ollama's
old default) that the system prompt, the tools, the kept history *and* the reply must share. The
Agent has no tokenizer of the model, so it **estimates**: ASCII text at ``ASCII_CHARS_PER_TOKEN``
characters a token (English and JSON run 3.5-4.5 with the common BPE vocabularies), every other
character as ``OTHER_TOKENS_PER_CHAR`` tokens (a CJK character is 1-3 tokens in byte-level BPE
vocabularies trained mostly on English, such as SmolLM2's), and ``MESSAGE_OVERHEAD`` tokens for
each message's template markers. The estimate is corrected by what a server says: an overflow
error names the prompt's real size, and the ratio to the estimate (``scale``) is kept.

The limit is configured (``LLMConfig.context_tokens``) or **learned** from the server's overflow
error (``overflow_of``), in the shapes the common servers word it:

- OpenAI / vLLM / llama-cpp-python: ``code: context_length_exceeded``, "This model's maximum
  context length is 2048 tokens. However, you requested 2200 tokens (2200 in the messages, None in
  the completion)…";
- llama.cpp's own server: ``type: exceed_context_size_error`` with ``n_ctx`` and ``n_prompt_tokens``
  ("the request exceeds the available context size…");
- llama-cpp-python's unwrapped error: "Requested tokens (2200) exceed context window of 2048".
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

ASCII_CHARS_PER_TOKEN = 3.0
OTHER_TOKENS_PER_CHAR = 2.0
MESSAGE_OVERHEAD = 6
REPLY_TOKENS = 512  # what is kept free for the reply: an IM answer is a few sentences
MIN_REPLY_TOKENS = 128
SAFETY = 1.1  # a learned scale is raised by this much: the next request must fit, not nearly fit

_MAX_CONTEXT = re.compile(r"maximum context length is (\d+)", re.IGNORECASE)
_PROMPT_TOKENS = re.compile(
    r"\((\d+) in the messages|resulted in (\d+) tokens|Requested tokens \((\d+)\)", re.IGNORECASE
)
_REQUESTED = re.compile(r"requested (\d+) tokens", re.IGNORECASE)
_WINDOW = re.compile(r"exceed context window of (\d+)", re.IGNORECASE)
_OVERFLOW_WORDS = re.compile(
    r"context[ _](?:length|window|size)|exceeds the available context|too many tokens|maximum context", re.IGNORECASE
)


def estimate_text(text: str) -> int:
    ascii_chars = sum(1 for c in text if c < "\x80")
    return math.ceil(ascii_chars / ASCII_CHARS_PER_TOKEN + (len(text) - ascii_chars) * OTHER_TOKENS_PER_CHAR)


def estimate_message(message: dict[str, Any]) -> int:
    tokens = MESSAGE_OVERHEAD + estimate_text(message.get("content") or "")
    if message.get("tool_calls"):
        tokens += estimate_text(json.dumps(message["tool_calls"], ensure_ascii=False))
    return tokens


def estimate_tools(tools: list[dict[str, Any]]) -> int:
    """Servers render the tools into the prompt as JSON-like text (chatml-function-calling, Hermes, Qwen…)."""
    return estimate_text(json.dumps(tools, ensure_ascii=False)) if tools else 0


@dataclass(frozen=True)
class Overflow:
    """A server's "the request does not fit" answer: its context size and the prompt's size, when it said them."""

    limit: int | None
    prompt_tokens: int | None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def overflow_of(status: int | None, body: object, message: str) -> Overflow | None:
    """The overflow a server's error describes, or None for any other error."""
    inner = body.get("error", body) if isinstance(body, dict) else None
    inner = inner if isinstance(inner, dict) else {}
    code, kind = str(inner.get("code") or ""), str(inner.get("type") or "")
    text = str(inner.get("message") or message or "")
    is_overflow = (
        code == "context_length_exceeded" or kind == "exceed_context_size_error" or bool(_OVERFLOW_WORDS.search(text))
    )
    if not is_overflow or (status is not None and status not in (400, 413, 422, 500)):
        return None
    limit = _int(inner.get("n_ctx"))
    prompt = _int(inner.get("n_prompt_tokens"))
    if limit is None and (found := _MAX_CONTEXT.search(text) or _WINDOW.search(text)):
        limit = int(found.group(1))
    if prompt is None and (found := _PROMPT_TOKENS.search(text)):
        prompt = int(next(group for group in found.groups() if group))
    if prompt is None and (found := _REQUESTED.search(text)):
        prompt = int(found.group(1))  # an upper bound: it may include the reply's tokens
    return Overflow(limit=limit, prompt_tokens=prompt)


class ContextWindow:
    """The server's context as far as it is known: configured, learned from an overflow, or not yet."""

    def __init__(self, configured: int | None = None, *, reply_tokens: int = REPLY_TOKENS) -> None:
        self.limit = configured
        self.reply_tokens_wanted = reply_tokens
        self.scale = 1.0

    @property
    def reply_tokens(self) -> int:
        """Tokens kept free for the reply (an eighth of a small context at most: 256 of 2 048 is ~150 words)."""
        if self.limit is None:
            return self.reply_tokens_wanted
        return max(MIN_REPLY_TOKENS, min(self.reply_tokens_wanted, self.limit // 8))

    @property
    def prompt_budget(self) -> int | None:
        """Estimated tokens a request's prompt may take; None while the limit is unknown."""
        if self.limit is None:
            return None
        return self.limit - self.reply_tokens

    def estimate(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> int:
        raw = sum(estimate_message(m) for m in messages) + estimate_tools(tools)
        return math.ceil(raw * self.scale)

    def learn(self, overflow: Overflow, estimated: int) -> bool:
        """Take in a server's overflow for a request estimated at ``estimated``; True if anything was learned.

        Without numbers the context is taken as 3/4 of what was just sent, so the next try is smaller
        (it never grows back: a server's context does not change while it runs).
        """
        before = (self.limit, self.scale)
        if overflow.limit is not None:
            self.limit = overflow.limit if self.limit is None else min(self.limit, overflow.limit)
        if overflow.prompt_tokens is not None and estimated > 0:
            real = overflow.prompt_tokens / (estimated / self.scale)
            if real * SAFETY > self.scale:
                self.scale = real * SAFETY
        if overflow.limit is None and overflow.prompt_tokens is None:
            guess = max(MIN_REPLY_TOKENS * 2, (estimated + self.reply_tokens) * 3 // 4)
            self.limit = guess if self.limit is None else min(self.limit, guess)
        return (self.limit, self.scale) != before
