"""Where the LLM Agent's model is: the launcher (interact.builtin_agents.selection) fills it from the settings."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LLMConfig:
    base_url: str  # the API base, up to and including /v1 (the SDK appends /chat/completions)
    model: str
    api_key: str = ""  # empty: a local server that wants none
    timeout_seconds: float = 60.0
    max_retries: int = 2
    # The server's context in tokens, when known (llama.cpp's --ctx-size); None: learned from its
    # first overflow error (agents.llm.context).
    context_tokens: int | None = None
    reply_tokens: int = 512  # kept free for the reply, and sent as max_tokens

    def __repr__(self) -> str:  # never log the key
        return (
            f"LLMConfig(base_url={self.base_url!r}, model={self.model!r}, api_key={'set' if self.api_key else 'none'})"
        )
