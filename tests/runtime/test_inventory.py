"""The Agent Inventory: what is published per conversation scope, and its revision (SPEC R-3.11).

The published Pomodoro descriptors must be the frozen schemas of SPEC §3.1, byte for byte in
meaning; the revision must be a pure function of what is published.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from runtime.inventory import build_inventory, inventory_for_scope
from runtime.manifests import load_manifests, registry
from runtime.miniapps import registered_tools
from runtime.models import AppInstance, AppSession, Conversation, LifecycleEvent, Operation, ToolCall
from runtime.tool_calls import Rejected
from runtime.tool_router import Caller, route_tool_call
from tests.support.factories import T0, new_call_id

BASE_DIR = Path(settings.BASE_DIR)
TOOLS = registered_tools()

# Copied from SPEC §3.1 "Frozen JSON Schemas" (the frozen contract, not from the manifest).
FROZEN = json.loads(
    """
{
  "pomodoro.start": {
    "input_schema": {
      "type": "object", "additionalProperties": false, "required": ["duration_seconds"],
      "properties": {
        "duration_seconds": {"type": "integer", "minimum": 1},
        "activity": {"type": "string", "maxLength": 256}
      }
    },
    "result_schema": {
      "type": "object", "additionalProperties": false,
      "required": ["state", "operation_id", "started_at", "ends_at", "ended_at"],
      "properties": {
        "state": {"enum": ["completed", "interrupted"]},
        "operation_id": {"type": "string"}, "started_at": {"type": "string"},
        "ends_at": {"type": "string"}, "ended_at": {"type": "string"},
        "interruption_reason": {"type": "string"}
      }
    }
  },
  "pomodoro.interrupt": {
    "input_schema": {"type": "object", "additionalProperties": false},
    "result_schema": {
      "type": "object", "additionalProperties": false, "required": ["status"],
      "properties": {
        "status": {"enum": ["interrupted", "no_active_focusing_operation", "operation_already_final"]},
        "operation_id": {"type": "string"}
      }
    }
  }
}
"""
)


def manifests_with(tmp_path: Path, change: Callable[[dict[str, dict[str, Any]]], None] | None = None) -> dict[str, Any]:
    """Load a copy of the bundled manifests, changed by ``change`` (app_id -> raw manifest)."""
    sources = {
        "interact": BASE_DIR / "interact" / "manifest.json",
        "pomodoro": BASE_DIR / "miniapps" / "pomodoro" / "manifest.json",
        "notes": BASE_DIR / "miniapps" / "notes" / "manifest.json",
        "quiz": BASE_DIR / "miniapps" / "quiz" / "manifest.json",
    }
    raw = {app_id: json.loads(path.read_text()) for app_id, path in sources.items()}
    if change is not None:
        change(raw)
    paths = []
    for app_id, data in raw.items():
        path = tmp_path / app_id / "manifest.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data))
        paths.append(path)
    return load_manifests(paths, runtime_tools=TOOLS)


def tool_of(raw: dict[str, dict[str, Any]], name: str) -> dict[str, Any]:
    return next(t for t in raw["pomodoro"]["tools"] if t["name"] == name)


# --- what is published -------------------------------------------------------------------------


@pytest.mark.spec("R-3.11", "R-3.5", "R-3.6")
def test_the_published_pomodoro_descriptors_are_the_frozen_schemas():
    """The personal Inventory publishes pomodoro.start (long operation) and pomodoro.interrupt
    (short), each with the input and result schema of SPEC §3.1 (beside the quiz's two tools)."""
    published = inventory_for_scope("personal").published()

    assert set(published) == {"revision", "tools", "apps"}
    # Beside the tools, each of their apps, with what its package declares of how people ask for it.
    assert [(a["app_id"], a["name"], "phrasings" in a) for a in published["apps"]] == [
        ("notes", "Scratch notes", True),
        ("pomodoro", "Pomodoro", True),
        ("quiz", "Practice quiz", True),
    ]
    # And how long each operation tool may run (its manifest's bound): an Agent need not guess it.
    assert [a.get("max_duration_seconds") for a in published["apps"]] == [
        None,
        {"pomodoro.start": 86400},
        {"quiz.start": 3600},
    ]
    assert [t["name"] for t in published["tools"]] == [
        "notes.append",
        "notes.read",
        "pomodoro.interrupt",
        "pomodoro.start",
        "quiz.start",
        "quiz.stop",
    ]
    for descriptor in [t for t in published["tools"] if t["app_id"] == "pomodoro"]:
        assert set(descriptor) == {
            "name",
            "version",
            "app_id",
            "call_model",
            "description",
            "input_schema",
            "result_schema",
        }
        assert descriptor["input_schema"] == FROZEN[descriptor["name"]]["input_schema"]
        assert descriptor["result_schema"] == FROZEN[descriptor["name"]]["result_schema"]
        assert descriptor["version"] == 1
        assert descriptor["app_id"] == "pomodoro"
        assert descriptor["description"]
    by_name = {t["name"]: t for t in published["tools"]}
    assert by_name["pomodoro.start"]["call_model"] == "operation"
    assert by_name["pomodoro.interrupt"]["call_model"] == "short"
    # What is published is JSON as the Agent receives it.
    assert json.loads(json.dumps(published)) == published


@pytest.mark.spec("R-3.11")
def test_the_published_validators_enforce_the_frozen_input_schemas():
    """The compiled validators behind the descriptors accept and refuse what the frozen schemas do,
    with the Runtime's strict integers (true and 1.0 are not durations)."""
    inventory = inventory_for_scope("personal")
    start = inventory.get("pomodoro.start").input_validator
    interrupt = inventory.get("pomodoro.interrupt").input_validator
    assert start.is_valid({"duration_seconds": 1})
    assert start.is_valid({"duration_seconds": 1500, "activity": "a" * 256})
    for bad in (
        {},
        {"duration_seconds": 0},
        {"duration_seconds": True},
        {"duration_seconds": 1.0},
        {"duration_seconds": "1"},
        {"duration_seconds": 1, "activity": "a" * 257},
        {"duration_seconds": 1, "x": 1},
    ):
        assert not start.is_valid(bad), bad
    assert interrupt.is_valid({})
    assert not interrupt.is_valid({"operation_id": "x"})


# --- the revision ------------------------------------------------------------------------------


@pytest.mark.spec("R-3.11")
def test_the_revision_is_stable():
    """The same published set has the same revision every time and in every process: a fresh load of
    the same manifests gives the same revision as the running registry."""
    first = inventory_for_scope("personal")
    assert re.fullmatch(r"inv-[0-9a-f]{16}", first.revision)
    assert inventory_for_scope("personal").revision == first.revision
    assert build_inventory(registry(), "personal").revision == first.revision
    fresh = load_manifests(sorted(registry()[a].path for a in registry()), runtime_tools=TOOLS)
    assert build_inventory(fresh, "personal") == first


@pytest.mark.spec("R-3.11")
def test_a_scope_with_no_tools_has_an_empty_inventory_with_another_revision():
    """A scope no tool lists gets no tools, and its revision differs from the personal one."""
    empty = inventory_for_scope("team")
    assert empty.tools == ()
    assert empty.published()["tools"] == []
    assert empty.revision != inventory_for_scope("personal").revision
    assert inventory_for_scope("other-scope").revision == empty.revision  # same (empty) set


def _remove_interrupt(raw):
    raw["pomodoro"]["tools"] = [tool_of(raw, "pomodoro.start")]


def _describe_differently(raw):
    tool_of(raw, "pomodoro.start")["description"] = "Start a focus."


def _tighten_activity(raw):
    tool_of(raw, "pomodoro.start")["input_schema"]["properties"]["activity"]["maxLength"] = 128


def _bump_version(raw):
    tool_of(raw, "pomodoro.interrupt")["version"] = 2


def _change_result_schema(raw):
    tool_of(raw, "pomodoro.interrupt")["result_schema"]["required"] = ["status", "operation_id"]


def _move_interrupt_to_team(raw):
    tool_of(raw, "pomodoro.interrupt")["conversation_scopes"] = ["team"]


@pytest.mark.spec("R-3.11")
@pytest.mark.parametrize(
    "change",
    [
        _remove_interrupt,
        _describe_differently,
        _tighten_activity,
        _bump_version,
        _change_result_schema,
        _move_interrupt_to_team,
    ],
)
def test_the_revision_changes_when_the_published_set_changes(change, tmp_path):
    """Any change to what the personal scope publishes — a tool gone, a description, a schema, a
    version, a scope — gives another revision."""
    current = inventory_for_scope("personal")
    changed = build_inventory(manifests_with(tmp_path, change), "personal")
    assert changed.revision != current.revision
    assert changed.published() != current.published()


def _reorder_tools(raw):
    raw["pomodoro"]["tools"].reverse()


def _rename_app(raw):
    raw["pomodoro"]["name"] = "Focus timer"
    raw["pomodoro"]["version"] = "1.0.1"


def _change_notes(raw):
    raw["notes"]["description"] = "Other words."


def _change_state_contract(raw):
    raw["pomodoro"]["instance_state"]["max_bytes"] = 2048


@pytest.mark.spec("R-3.11")
@pytest.mark.parametrize("change", [_reorder_tools, _rename_app, _change_notes, _change_state_contract])
def test_the_revision_ignores_what_is_not_published(change, tmp_path):
    """Changes that do not touch the published descriptors (tool order in the file, app name and
    version, another app, the instance-state contract) keep the revision."""
    changed = build_inventory(manifests_with(tmp_path, change), "personal")
    assert changed.revision == inventory_for_scope("personal").revision


@pytest.mark.spec("R-3.11")
def test_a_tool_is_published_only_to_the_scopes_it_lists(tmp_path):
    """A tool whose conversation_scopes leave out a scope is absent from that scope's Inventory."""
    manifests = manifests_with(tmp_path, _move_interrupt_to_team)
    personal = build_inventory(manifests, "personal")
    team = build_inventory(manifests, "team")
    bundled = [t.name for t in inventory_for_scope("personal").tools]  # whatever apps are installed
    assert [t.name for t in personal.tools] == [name for name in bundled if name != "pomodoro.interrupt"]
    assert personal.get("pomodoro.interrupt") is None
    assert [t.name for t in team.tools] == ["pomodoro.interrupt"]
    assert team.revision != personal.revision


@pytest.fixture
def team_conversation(django_user_model) -> Conversation:
    owner = django_user_model.objects.create_user(username="team-owner", password=None)
    return Conversation.objects.create(owner=owner, title="Team room", scope="team")


@pytest.mark.django_db
@pytest.mark.spec("R-3.11")
@pytest.mark.parametrize(
    ("tool", "arguments"), [("pomodoro.start", {"duration_seconds": 60}), ("pomodoro.interrupt", {})]
)
def test_a_tool_not_published_to_the_conversations_scope_is_unknown(tool, arguments, team_conversation):
    """Pomodoro's tools list only the personal scope: called in a conversation of another scope (with
    that scope's current revision) they are unknown_tool, and nothing starts."""
    caller = Caller(label="agent:team", user_id=team_conversation.owner_id)
    revision = inventory_for_scope("team").revision
    call_id = new_call_id("team")

    outcome = route_tool_call(
        caller=caller,
        conversation_id=str(team_conversation.id),
        source_tool_call_id=call_id,
        tool=tool,
        arguments=arguments,
        inventory_revision=revision,
        now=T0,
    )

    assert isinstance(outcome, Rejected)
    assert outcome.code == "unknown_tool"
    assert tool in outcome.detail
    assert AppInstance.objects.count() == 0  # not even Interact's workspace was opened
    assert AppSession.objects.count() == Operation.objects.count() == ToolCall.objects.count() == 0
    event = LifecycleEvent.objects.get(kind="tool.rejected")
    assert event.data["code"] == "unknown_tool"
    assert event.source_tool_call_id == call_id
    assert event.conversation_id == team_conversation.id
