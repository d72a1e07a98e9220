"""The Inventory as OpenAI ``tools``, and a model's tool-call arguments back as a call (pure, no I/O).

OpenAI function names must match ``^[a-zA-Z0-9_-]{1,64}$``, and LineUp's tool names have dots, so
``pomodoro.start`` is offered as ``pomodoro__start``: every ``.`` becomes ``__``. The way back is
the ``ToolSet``'s own table, never a reverse string rule, so a name the model invents is simply
unknown; a tool whose offered name would break the pattern or collide with another is not offered.

Arguments arrive as a JSON *string* the model wrote. ``parse_arguments`` only makes sure it is one
JSON object (strictly: no duplicate keys, no NaN); whether its fields are right is the Tool Router's
decision (``invalid_arguments``), the one validation path every Agent goes through.
"""

from __future__ import annotations

import copy
import json
import math
import re
import sys
from dataclasses import dataclass, field
from typing import Any

FUNCTION_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
# Far above any valid Pomodoro call (activity <= 256 chars) and far below the 64 KiB frame limit:
# a frame the server refuses as too large would name no call, and the turn would wait in vain.
MAX_ARGUMENTS_CHARS = 8192
MAX_DEPTH = 30  # the frame may nest 32 levels; the frame and its arguments object take two
_JSON_TYPES = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean"}
_JSON_TYPES[type(None)] = "null"
# Length and count bounds a model's grammar compiler may expand rule by rule (decision 0063).
_SIZE_BOUNDS = frozenset(
    {"maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "maxContains", "minContains"}
)
MAX_MODEL_BOUND = 256
LONG_TOOL_NOTE = (
    " Long-running: the call answers at once when it has started; LineUp reports the final result"
    " to the person in the IM when it ends."
)


class MalformedArguments(ValueError):
    """The model's arguments are not one JSON object; ``detail`` says why, for the person and the model."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def function_name(tool_name: str) -> str:
    """``pomodoro.start`` -> ``pomodoro__start``."""
    return tool_name.replace(".", "__")


@dataclass(frozen=True)
class ToolSet:
    """One conversation's Inventory as offered to the model."""

    openai_tools: list[dict[str, Any]] = field(default_factory=list)
    by_function: dict[str, str] = field(default_factory=dict)  # offered name -> LineUp tool name

    def tool_for(self, offered_name: str) -> str | None:
        return self.by_function.get(offered_name)


def tool_set(descriptors: list[dict[str, Any]]) -> ToolSet:
    """OpenAI ``tools`` for the published descriptors of an ``inventory`` frame."""
    offered: list[dict[str, Any]] = []
    by_function: dict[str, str] = {}
    for descriptor in descriptors:
        name = function_name(descriptor["name"])
        if not FUNCTION_NAME.match(name) or name in by_function:
            continue  # not expressible as an OpenAI function name (or ambiguous): not offered
        parameters = model_schema(descriptor.get("input_schema") or {"type": "object"})
        parameters.setdefault("properties", {})  # some compatible servers insist on it
        description = descriptor.get("description", "")
        if descriptor.get("call_model") == "operation":
            description += LONG_TOOL_NOTE
        offered.append(
            {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}
        )
        by_function[name] = descriptor["name"]
    return ToolSet(openai_tools=offered, by_function=by_function)


def model_schema(schema: Any) -> Any:
    """The model's copy of an input schema: a deep copy without length or count bounds above ``MAX_MODEL_BOUND``.

    llama.cpp compiles a tool's schema into a grammar, one rule per allowed repetition: Notes'
    ``maxLength: 2000`` became ~2 000 rules, the server refused it and died mid-conversation. The
    Tool Router still checks the full schema, so a longer text is refused there, with a reason.
    """
    if isinstance(schema, list):
        return [model_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return copy.deepcopy(schema)
    return {
        key: model_schema(value)
        for key, value in schema.items()
        if not (
            key in _SIZE_BOUNDS and isinstance(value, int) and not isinstance(value, bool) and value > MAX_MODEL_BOUND
        )
    }


def compact_tools(openai_tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same functions with each description cut to its first sentence: for a context too small for the full ones."""
    compact = copy.deepcopy(openai_tools)
    for tool in compact:
        description = tool["function"].get("description", "")
        first, dot, _ = description.partition(". ")
        tool["function"]["description"] = first + ("." if dot else "")
    return compact


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise MalformedArguments(f"the key {key!r} appears twice")
        result[key] = value
    return result


def _no_constants(name: str) -> Any:
    raise MalformedArguments(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise MalformedArguments(f"{text} is beyond a double's range")
    return value


def _double_int(text: str) -> int:
    value = int(text)
    if abs(value) > sys.float_info.max:
        raise MalformedArguments(f"{text[:20]}... is beyond a double's range")
    return value


def _check_strict(value: Any, depth: int = 1) -> None:
    """What the protocol's strict JSON refuses (docs/agent-protocol.md) is refused here, with a reason.

    The server would answer such a frame with an ``error`` naming no call; caught here, the person
    and the model are told which call and why.
    """
    if depth > MAX_DEPTH:
        raise MalformedArguments(f"the arguments are nested deeper than {MAX_DEPTH} levels")
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        for text in (key, item):
            if isinstance(text, str) and ("\x00" in text or any(0xD800 <= ord(c) <= 0xDFFF for c in text)):
                raise MalformedArguments("the arguments contain U+0000 or an unpaired surrogate")
        if isinstance(item, dict | list):
            _check_strict(item, depth + 1)


def parse_arguments(raw: str | None) -> dict[str, Any]:
    """The model's ``function.arguments`` as a dict; ``""`` (sent by some models for no arguments) is ``{}``."""
    if raw is None or not raw.strip():
        return {}
    if len(raw) > MAX_ARGUMENTS_CHARS:
        raise MalformedArguments(f"the arguments are longer than {MAX_ARGUMENTS_CHARS} characters")
    try:
        value = json.loads(
            raw,
            object_pairs_hook=_no_duplicate_keys,
            parse_constant=_no_constants,
            parse_float=_finite_float,
            parse_int=_double_int,
        )
    except json.JSONDecodeError as error:
        raise MalformedArguments(f"the arguments are not valid JSON: {error.msg} at character {error.pos}") from None
    except MalformedArguments:
        raise
    except ValueError as error:  # e.g. an integer with more digits than Python converts
        raise MalformedArguments(f"the arguments are not valid JSON: {error}") from None
    if not isinstance(value, dict):
        raise MalformedArguments(f"the arguments must be a JSON object, not {_JSON_TYPES.get(type(value), 'that')}")
    _check_strict(value)
    return value
