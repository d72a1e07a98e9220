"""The one place that talks to the model server: an OpenAI-compatible ``POST {base_url}/chat/completions``.

It uses the official ``openai`` SDK (``AsyncOpenAI`` with the configured ``base_url``), which also
does the bounded retries: ``max_retries`` more attempts, with its own exponential backoff, after a
connection error, a timeout, 408/409/429 or a 5xx. Whatever still fails becomes one ``ModelError``
with a short reason the Agent can put in the IM; the Agent then waits for the person's next
message — there is no retry loop of its own that could spin.

The SDK's response object is turned into a ``ModelReply`` of plain values at once, so nothing
downstream depends on the SDK's types (which differ between compatible servers' extras).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import openai

from agents.llm.config import LLMConfig
from agents.llm.context import Overflow, overflow_of

# The SDK refuses to start without a key; local servers (Ollama, llama.cpp, vLLM) want none and
# ignore the header, so this placeholder is sent when no key is configured.
NO_KEY = "no-key-configured"


class ModelError(Exception):
    """The model server gave no usable answer; ``reason`` is one of ``timeout``, ``unreachable``,
    ``refused`` (an HTTP error status), ``context`` (the request did not fit the server's context;
    ``overflow`` says what the server told of it) or ``bad_response``, and ``detail`` says more —
    for the logs: it is the server's own words, never shown to the person."""

    def __init__(self, reason: str, detail: str, *, overflow: Overflow | None = None) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
        self.overflow = overflow


@dataclass(frozen=True)
class ToolCallRequest:
    id: str
    name: str
    arguments: str | None  # the JSON text the model wrote, unparsed


@dataclass(frozen=True)
class ModelReply:
    text: str | None
    tool_calls: list[ToolCallRequest] = field(default_factory=list)

    def assistant_message(self) -> dict[str, Any]:
        """The reply as the assistant message the history keeps (and the next request sends back)."""
        # "" rather than null beside tool calls: llama-cpp-python's server refuses an assistant message
        # whose content is not a string (a 500 for every later request of the conversation).
        message: dict[str, Any] = {"role": "assistant", "content": self.text or ""}
        if self.tool_calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments or ""}}
                for c in self.tool_calls
            ]
        return message


class ChatModel:
    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self._client = openai.AsyncOpenAI(
            base_url=config.base_url,
            api_key=config.api_key or NO_KEY,
            timeout=config.timeout_seconds,
            max_retries=config.max_retries,
        )

    async def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], *, max_tokens: int | None = None
    ) -> ModelReply:
        """One chat completion; raises ``ModelError`` once the SDK's retries are spent.

        ``max_tokens`` bounds the reply, so the prompt and the reply are known to fit the context together.
        """
        try:
            completion = await self._client.chat.completions.create(
                model=self.config.model,
                messages=messages,  # type: ignore[arg-type]  # plain dicts in the documented shapes
                # "auto" said explicitly: OpenAI's default with tools, but llama-cpp-python's
                # chatml-function-calling takes a missing tool_choice as "none" and shows the model no tools.
                **({"tools": tools, "tool_choice": "auto"} if tools else {}),
                **({"max_tokens": max_tokens} if max_tokens else {}),
            )
        except openai.APITimeoutError:
            raise ModelError("timeout", f"no answer within {self.config.timeout_seconds:g} s") from None
        except openai.APIConnectionError as error:
            raise ModelError("unreachable", str(error.__cause__ or error)) from None
        except openai.APIStatusError as error:
            detail = f"HTTP {error.status_code}: {_status_message(error)}"
            overflow = overflow_of(error.status_code, error.body, str(error.message))
            if overflow is not None:
                raise ModelError("context", detail, overflow=overflow) from None
            raise ModelError("refused", detail) from None
        except openai.OpenAIError as error:
            raise ModelError("bad_response", str(error)) from None
        except ValueError as error:  # a 200 whose body is not JSON: the SDK lets json's error through
            raise ModelError("bad_response", f"{type(error).__name__}: {error}"[:200]) from None
        return _reply_of(completion)

    async def close(self) -> None:
        await self._client.close()


def _status_message(error: openai.APIStatusError) -> str:
    body = error.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return inner["message"][:200]
    return str(error.message)[:200]


def _reply_of(completion: Any) -> ModelReply:
    try:
        message = completion.choices[0].message
        calls = [
            ToolCallRequest(
                id=call.id or f"call_{index}",
                name=call.function.name or "",
                arguments=call.function.arguments,
            )
            for index, call in enumerate(message.tool_calls or [])
            if getattr(call, "function", None) is not None  # "custom" tool calls: none offered
        ]
        text = message.content if isinstance(message.content, str) else None
    except (AttributeError, IndexError, TypeError) as error:
        raise ModelError("bad_response", f"no choice with a message ({type(error).__name__})") from None
    return ModelReply(text=text.strip() if text and text.strip() else None, tool_calls=calls)
