"""agents.llm.tools: the Inventory as OpenAI tools, and the model's arguments parsed strictly."""

from __future__ import annotations

import pytest

from agents.llm.tools import (
    FUNCTION_NAME,
    LONG_TOOL_NOTE,
    MAX_ARGUMENTS_CHARS,
    MAX_MODEL_BOUND,
    MalformedArguments,
    model_schema,
    parse_arguments,
    tool_set,
)
from runtime.inventory import inventory_for_scope


def descriptor(name: str, **extra) -> dict:
    return {"name": name, "call_model": "short", "description": f"{name} does it", **extra}


@pytest.mark.spec("R-3.11")
def test_the_published_inventory_becomes_openai_functions_with_mapped_names():
    """Each published tool is offered as a function named with ``.`` -> ``__``, its input schema as the
    parameters; the long tool says its result comes later; the table maps the names back."""
    published = inventory_for_scope("personal").published()["tools"]
    tools = tool_set(published)
    by_name = {t["function"]["name"]: t["function"] for t in tools.openai_tools}
    assert set(by_name) == {
        "notes__append",
        "notes__read",
        "pomodoro__start",
        "pomodoro__interrupt",
        "quiz__start",
        "quiz__stop",
    }
    assert all(FUNCTION_NAME.match(name) for name in by_name)
    assert tools.tool_for("pomodoro__start") == "pomodoro.start"
    assert tools.tool_for("pomodoro.start") is None  # only offered names map back
    start = next(d for d in published if d["name"] == "pomodoro.start")
    assert by_name["pomodoro__start"]["parameters"] == start["input_schema"]
    assert by_name["pomodoro__start"]["description"].endswith(LONG_TOOL_NOTE)
    assert by_name["pomodoro__interrupt"]["parameters"] == {
        "type": "object",
        "additionalProperties": False,
        "properties": {},
    }
    assert "properties" not in next(d for d in published if d["name"] == "pomodoro.interrupt")["input_schema"]


def test_names_that_can_not_be_function_names_or_collide_are_not_offered():
    tools = tool_set([descriptor("notes.add"), descriptor("notes__add"), descriptor("bad name!"), descriptor("x" * 65)])
    assert [t["function"]["name"] for t in tools.openai_tools] == ["notes__add"]
    assert tools.by_function == {"notes__add": "notes.add"}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (None, {}),
        ("", {}),
        ("  ", {}),
        ("{}", {}),
        ('{"duration_seconds": 1500, "activity": "写作业"}', {"duration_seconds": 1500, "activity": "写作业"}),
        ('{"duration_seconds": "25"}', {"duration_seconds": "25"}),  # wrong types are the Tool Router's to refuse
    ],
)
def test_json_objects_are_arguments(raw, expected):
    assert parse_arguments(raw) == expected


@pytest.mark.spec("R-2.2.3")
@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ('{"duration_seconds": 1500', "not valid JSON: Expecting ',' delimiter at character 25"),
        ("duration_seconds=1500", "not valid JSON: Expecting value at character 0"),
        ("[1500]", "must be a JSON object, not an array"),
        ('"1500"', "must be a JSON object, not a string"),
        ("null", "must be a JSON object, not null"),
        ('{"a": 1, "a": 2}', "the key 'a' appears twice"),
        ('{"duration_seconds": NaN}', "NaN is not a JSON number"),
        ('{"duration_seconds": 1e309}', "1e309 is beyond a double's range"),
        ('{"activity": "a\\u0000b"}', "U+0000 or an unpaired surrogate"),
        ('{"activity": "\\ud800"}', "U+0000 or an unpaired surrogate"),
        ('{"a": ' * 31 + "1" + "}" * 31, "nested deeper than 30 levels"),
        ('{"activity": "' + "x" * MAX_ARGUMENTS_CHARS + '"}', f"longer than {MAX_ARGUMENTS_CHARS} characters"),
    ],
)
def test_anything_but_one_strict_json_object_is_malformed(raw, why):
    """What the protocol's strict JSON would refuse as a frame is refused here with a reason."""
    with pytest.raises(MalformedArguments) as raised:
        parse_arguments(raw)
    assert why in raised.value.detail


def _bounds(schema, found=None) -> list[tuple[str, int]]:
    found = [] if found is None else found
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key.startswith(("max", "min")) and key.endswith(("Length", "Items", "Properties", "Contains")):
                found.append((key, value))
            _bounds(value, found)
    elif isinstance(schema, list):
        for item in schema:
            _bounds(item, found)
    return found


@pytest.mark.spec("R-3.11")
def test_the_models_copy_of_a_schema_has_no_bound_a_grammar_compiler_would_expand_rule_by_rule():
    """llama.cpp turns a tool's schema into a grammar, one rule per allowed repetition: Notes'
    ``maxLength: 2000`` was ~2 000 rules, refused, and the server died mid-conversation. The model's
    copy drops length/count bounds above 256 (smaller ones stay); the published schema the Tool
    Router checks keeps them all."""
    published = inventory_for_scope("personal").published()["tools"]
    notes_append = next(d for d in published if d["name"] == "notes.append")
    assert ("maxLength", 2000) in _bounds(notes_append["input_schema"])  # what the Router checks
    offered = tool_set(published).openai_tools
    bounds = _bounds([t["function"]["parameters"] for t in offered])
    assert bounds and all(value <= MAX_MODEL_BOUND for _, value in bounds), bounds
    assert ("maxLength", 256) in bounds  # Pomodoro's activity: small bounds still guide the model
    assert ("maxLength", 2000) in _bounds(notes_append["input_schema"])  # the descriptor is not changed
    nested = {"type": "array", "maxItems": 1000, "minItems": 1, "items": {"type": "string", "maxLength": 4096}}
    assert model_schema({"type": "object", "properties": {"lines": nested}}) == {
        "type": "object",
        "properties": {"lines": {"type": "array", "minItems": 1, "items": {"type": "string"}}},
    }
