"""Manifest loading and validation at start-up (SPEC R-3.11, §3.2).

A bad manifest must be a clear start-up error naming the file and the field. Bad manifests are
real files under ``tmp_path``, made from copies of the bundled ones; start-up is a real
``manage.py check`` subprocess pointed at them through ``LINEUP_MANIFEST_GLOBS``.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from runtime.manifests import (
    ManifestError,
    load_manifest,
    load_manifests,
    manifest_paths,
    registry,
)
from runtime.miniapps import registered_tools

BASE_DIR = Path(settings.BASE_DIR)
BUNDLED = {
    "interact": BASE_DIR / "interact" / "manifest.json",
    "pomodoro": BASE_DIR / "miniapps" / "pomodoro" / "manifest.json",
    "notes": BASE_DIR / "miniapps" / "notes" / "manifest.json",
    "quiz": BASE_DIR / "miniapps" / "quiz" / "manifest.json",
}
TOOLS = registered_tools()

# SPEC §3.2, the app.instance-state.v1 contract Pomodoro declares.
POMODORO_STATE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["operation_id", "started_at", "ends_at", "display_state"],
    "properties": {
        "operation_id": {"type": "string"},
        "activity": {"type": "string"},
        "started_at": {"type": "string"},
        "ends_at": {"type": "string"},
        "ended_at": {"type": "string"},
        "display_state": {"enum": ["focusing", "completed", "interrupted"]},
        "interruption_reason": {"type": "string"},
    },
}


def bundled(app_id: str) -> dict[str, Any]:
    return json.loads(BUNDLED[app_id].read_text())


def write_manifest(directory: Path, data: dict[str, Any] | str, *, name: str = "manifest.json") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2))
    return path


def copy_bundled(root: Path, *, change: dict[str, Callable[[dict[str, Any]], None]] | None = None) -> Path:
    """A copy of the bundled manifests under ``root`` (interact/, miniapps/<app>/), some changed."""
    for app_id, source in BUNDLED.items():
        data = json.loads(source.read_text())
        if change and app_id in change:
            change[app_id](data)
        write_manifest(root / source.parent.relative_to(BASE_DIR), data)
    return root


# --- the bundled manifests ---------------------------------------------------------------------


@pytest.mark.spec("R-3.11", "R-2.1.1", "R-2.3.4")
def test_the_bundled_manifests_load():
    """Interact (system), Pomodoro (bundled, two tools, instance state), Notes and the quiz load and validate."""
    manifests = registry()
    # Every manifest the globs find, app id = its directory (what startminiapp writes), these among them.
    assert set(manifests) == {path.parent.name for path in manifest_paths()}
    assert {"interact", "pomodoro", "notes", "quiz"} <= set(manifests)
    assert [m.app_id for m in manifests.values() if m.is_system] == ["interact"]
    assert manifests["interact"].tools == ()

    pomodoro = manifests["pomodoro"]
    assert pomodoro.kind == "bundled"
    assert pomodoro.user_launchable is False
    assert pomodoro.path == BUNDLED["pomodoro"]
    assert {t.name: t.call_model for t in pomodoro.tools} == {
        "pomodoro.start": "operation",
        "pomodoro.interrupt": "short",
    }
    assert all(t.conversation_scopes == ("personal",) for t in pomodoro.tools)
    contract = pomodoro.instance_state
    assert contract is not None
    assert (contract.schema_version, contract.max_bytes, contract.retention) == (1, 4096, "retain_readonly")
    assert contract.schema == POMODORO_STATE_SCHEMA
    assert manifests["notes"].user_launchable is True
    assert {t.name: t.call_model for t in manifests["quiz"].tools} == {"quiz.start": "operation", "quiz.stop": "short"}


@pytest.mark.spec("R-3.11")
def test_the_registry_is_what_the_configured_globs_load():
    """registry() is exactly the validated load of the files LINEUP_MANIFEST_GLOBS names."""
    paths = manifest_paths()
    assert sorted(paths) == sorted(BUNDLED.values())
    fresh = load_manifests(paths, runtime_tools=TOOLS)
    assert fresh.keys() == registry().keys()
    for app_id, manifest in fresh.items():
        assert manifest == registry()[app_id]


@pytest.mark.spec("R-3.11")
def test_manifest_globs_may_be_absolute(settings, tmp_path):
    """An absolute glob (as LINEUP_MANIFEST_GLOBS may give) is matched as it is, not under BASE_DIR."""
    root = copy_bundled(tmp_path / "apps")
    settings.LINEUP_MANIFEST_GLOBS = [str(root / "interact" / "manifest.json"), str(root / "miniapps/*/manifest.json")]
    paths = manifest_paths()
    assert sorted(paths) == sorted(root.glob("**/manifest.json"))
    assert len(paths) == len(registry())
    assert set(load_manifests(paths, runtime_tools=TOOLS)) == set(registry())


# --- one bad manifest: the error names the file and the field ----------------------------------


def _pomodoro(mutate: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = bundled("pomodoro")
    mutate(data)
    return data


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _delete(*path: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


def _duplicate_first_tool(data: dict[str, Any]) -> None:
    data["tools"].append(copy.deepcopy(data["tools"][0]))


def _interact_with_a_tool() -> dict[str, Any]:
    data = bundled("interact")
    data["tools"] = [dict(bundled("pomodoro")["tools"][1], name="interact.notice")]
    return data


BAD_MANIFESTS: list[tuple[str, Callable[[], dict[str, Any] | str], list[str]]] = [
    ("invalid-json", lambda: '{"app_id": "pomodoro",\n  "name": }', ["invalid JSON", "line 2"]),
    ("not-an-object", lambda: "[]", ["(root)", "not of type 'object'"]),
    ("missing-app_id", lambda: _pomodoro(_delete("app_id")), ["(root)", "'app_id' is a required property"]),
    ("bad-app_id", lambda: _pomodoro(_set(["app_id"], "Pomodoro!")), ["app_id:", "Pomodoro!"]),
    ("missing-kind", lambda: _pomodoro(_delete("kind")), ["'kind' is a required property"]),
    ("unknown-kind", lambda: _pomodoro(_set(["kind"], "remote")), ["kind:", "remote"]),
    ("manifest_version-2", lambda: _pomodoro(_set(["manifest_version"], 2)), ["manifest_version:"]),
    ("bad-version", lambda: _pomodoro(_set(["version"], "one")), ["version:", "one"]),
    (
        "extra-top-level-field",
        lambda: _pomodoro(_set(["permissions"], ["notifications"])),
        ["(root)", "'permissions' was unexpected"],
    ),
    (
        "extra-tool-field",
        lambda: _pomodoro(_set(["tools", 0, "handler"], "x")),
        ["tools/0", "'handler' was unexpected"],
    ),
    ("tool-missing-input_schema", lambda: _pomodoro(_delete("tools", 1, "input_schema")), ["tools/1", "input_schema"]),
    (
        "tool-no-scopes",
        lambda: _pomodoro(_set(["tools", 0, "conversation_scopes"], [])),
        ["tools/0/conversation_scopes"],
    ),
    ("tool-bad-call_model", lambda: _pomodoro(_set(["tools", 1, "call_model"], "stream")), ["tools/1/call_model"]),
    (
        "tool-name-prefix",
        lambda: _pomodoro(_set(["tools", 0, "name"], "timer.start")),
        ["tools/0/name", "'timer.start' must start with 'pomodoro.'"],
    ),
    (
        "tool-name-shape",
        lambda: _pomodoro(_set(["tools", 0, "name"], "pomodoro")),
        ["tools/0/name", "'pomodoro'"],
    ),
    (
        "unknown-handler",
        lambda: _pomodoro(_set(["tools", 1, "name"], "pomodoro.pause")),
        ["tools/1/name", "no handler for 'pomodoro.pause'"],
    ),
    (
        "input_schema-not-json-schema",
        lambda: _pomodoro(_set(["tools", 0, "input_schema", "type"], "objekt")),
        ["tools/0/input_schema/type: not a valid JSON Schema"],
    ),
    (
        "input_schema-bad-keyword-value",
        lambda: _pomodoro(_set(["tools", 1, "input_schema", "additionalProperties"], "no")),
        ["tools/1/input_schema/additionalProperties: not a valid JSON Schema"],
    ),
    (
        "result_schema-not-json-schema",
        lambda: _pomodoro(_set(["tools", 0, "result_schema", "required"], "state")),
        ["tools/0/result_schema/required: not a valid JSON Schema"],
    ),
    (
        "state_schema-not-json-schema",
        lambda: _pomodoro(_set(["instance_state", "state_schema", "type"], 5)),
        ["instance_state/state_schema/type: not a valid JSON Schema"],
    ),
    ("duplicate-tool", lambda: _pomodoro(_duplicate_first_tool), ["tools/2/name", "duplicate tool 'pomodoro.start'"]),
    (
        "instance_state-without-feature",
        lambda: _pomodoro(_set(["features"], [])),
        ["instance_state:", "declared without feature app.instance-state.v1"],
    ),
    (
        "feature-without-instance_state",
        lambda: _pomodoro(_delete("instance_state")),
        ["instance_state:", "required by feature app.instance-state.v1"],
    ),
    ("unknown-feature", lambda: _pomodoro(_set(["features"], ["app.telepathy.v1"])), ["features/0"]),
    ("quota-too-big", lambda: _pomodoro(_set(["instance_state", "max_bytes"], 10**6)), ["instance_state/max_bytes"]),
    ("bad-retention", lambda: _pomodoro(_set(["instance_state", "retention"], "delete")), ["instance_state/retention"]),
    (
        "bad-surface-entry",
        lambda: _pomodoro(_set(["surface", "entry"], "https://evil.example/x.js")),
        ["surface/entry"],
    ),
]


@pytest.mark.spec("R-3.11")
@pytest.mark.parametrize(("label", "make", "expected"), BAD_MANIFESTS, ids=[c[0] for c in BAD_MANIFESTS])
def test_a_bad_manifest_is_an_error_naming_the_file_and_the_field(label, make, expected, tmp_path):
    """load_manifest refuses the file with a ManifestError whose message starts with the file and
    names the offending field."""
    path = write_manifest(tmp_path / label, make())
    with pytest.raises(ManifestError) as error:
        load_manifest(path, runtime_tools=TOOLS)
    message = str(error.value)
    assert message.startswith(f"{path}: "), message
    for part in expected:
        assert part in message, message


@pytest.mark.spec("R-3.11")
def test_an_unreadable_manifest_is_an_error_naming_the_file(tmp_path):
    """A file that is not UTF-8 is refused with its path."""
    path = tmp_path / "manifest.json"
    path.write_bytes(b'{"app_id": "\xff"}')
    with pytest.raises(ManifestError, match="can not be read") as error:
        load_manifest(path, runtime_tools=TOOLS)
    assert str(error.value).startswith(f"{path}: ")


@pytest.mark.spec("R-3.11", "R-2.1.1")
def test_a_system_app_publishes_no_tools(tmp_path):
    """Interact carries the interaction; even a tool the Runtime could handle may not be declared by it."""
    path = write_manifest(tmp_path, _interact_with_a_tool())
    with pytest.raises(ManifestError) as error:
        load_manifest(path, runtime_tools=TOOLS | {"interact.notice"})
    assert str(error.value) == f"{path}: tools: a system app publishes no tools"


# --- the set of manifests ----------------------------------------------------------------------


@pytest.mark.spec("R-3.11")
def test_a_duplicate_app_id_names_both_files(tmp_path):
    """Two manifests declaring one app_id: the error names the second file, the field and the first file."""
    root = copy_bundled(tmp_path / "apps")
    copy_path = write_manifest(root / "miniapps" / "pomodoro-copy", bundled("pomodoro"))
    paths = sorted(root.glob("**/manifest.json"))
    with pytest.raises(ManifestError) as error:
        load_manifests(paths, runtime_tools=TOOLS)
    message = str(error.value)
    original = root / "miniapps" / "pomodoro" / "manifest.json"
    assert message.startswith(f"{copy_path}: app_id: 'pomodoro' already declared by {original}"), message


@pytest.mark.spec("R-3.11", "R-2.1.1")
def test_a_set_without_a_system_app_is_refused(tmp_path):
    """Interact is required: a set of ordinary apps only does not load."""
    paths = [
        write_manifest(tmp_path / "pomodoro", bundled("pomodoro")),
        write_manifest(tmp_path / "notes", bundled("notes")),
    ]
    with pytest.raises(ManifestError, match="no system app manifest"):
        load_manifests(paths, runtime_tools=TOOLS)
    with pytest.raises(ManifestError, match="no system app manifest"):
        load_manifests([], runtime_tools=TOOLS)


@pytest.mark.spec("R-3.11")
def test_one_bad_manifest_stops_the_whole_set(tmp_path):
    """A bad file among good ones refuses the set, naming the bad file."""
    root = copy_bundled(tmp_path / "apps", change={"notes": _set(["tools"], "none")})
    with pytest.raises(ManifestError) as error:
        load_manifests(sorted(root.glob("**/manifest.json")), runtime_tools=TOOLS)
    assert str(error.value).startswith(f"{root / 'miniapps' / 'notes' / 'manifest.json'}: tools: ")


@pytest.mark.spec("R-3.11")
def test_a_tool_the_runtime_does_not_implement_is_refused_even_if_well_formed(tmp_path):
    """Only tools with a Runtime handler can be declared: the same file loads once the handler exists."""
    data = _pomodoro(_set(["tools", 1, "name"], "pomodoro.snooze"))
    path = write_manifest(tmp_path, data)
    with pytest.raises(ManifestError, match=r"tools/1/name: the Runtime has no handler for 'pomodoro.snooze'"):
        load_manifest(path, runtime_tools=TOOLS)
    manifest = load_manifest(path, runtime_tools=TOOLS | {"pomodoro.snooze"})
    assert [t.name for t in manifest.tools] == ["pomodoro.start", "pomodoro.snooze"]


# --- Django start-up ---------------------------------------------------------------------------


def _manage_check(globs: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, LINEUP_MANIFEST_GLOBS=globs, LINEUP_LOG_LEVEL="WARNING")
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _globs(root: Path) -> str:
    return f"{root / 'interact' / 'manifest.json'},{root / 'miniapps' / '*' / 'manifest.json'}"


@pytest.mark.spec("R-3.11")
def test_django_starts_with_good_manifests_from_elsewhere(tmp_path):
    """Pointing LINEUP_MANIFEST_GLOBS at a good copy starts cleanly (the control for the next test)."""
    result = _manage_check(_globs(copy_bundled(tmp_path / "apps")))
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


@pytest.mark.spec("R-3.11")
def test_django_start_up_fails_on_a_bad_manifest_naming_file_and_field(tmp_path):
    """With one bad manifest Django does not start: non-zero exit, stderr names the file and field."""
    root = copy_bundled(
        tmp_path / "apps",
        change={"pomodoro": _set(["tools", 0, "input_schema", "properties", "duration_seconds", "type"], "integr")},
    )
    result = _manage_check(_globs(root))
    assert result.returncode != 0
    bad = root / "miniapps" / "pomodoro" / "manifest.json"
    assert (
        f"ManifestError: {bad}: tools/0/input_schema/properties/duration_seconds/type: not a valid JSON Schema"
        in result.stderr
    ), result.stderr


@pytest.mark.spec("R-3.11", "R-2.1.1")
def test_django_start_up_fails_without_the_system_app(tmp_path):
    """Relative globs work from the environment too; a set missing Interact stops start-up."""
    result = _manage_check("miniapps/*/manifest.json")
    assert result.returncode != 0
    assert "no system app manifest found" in result.stderr, result.stderr


def test_a_running_operation_is_called_what_its_manifest_says():
    """``deadline_operation.running_label``: Pomodoro's focus is "focusing"; an app that says nothing is "running"."""
    from runtime.manifests import registry

    labels = {m.app_id: t.operation.running_label for m in registry().values() for t in m.tools if t.operation}
    assert labels == {"pomodoro": "focusing", "quiz": "running"}


# --- what an Agent may read, and an app's own words (issue 35) ---------------------------------


def test_agent_readable_names_properties_of_the_state_schema(tmp_path):
    notes = load_manifest(BUNDLED["notes"], runtime_tools=TOOLS)
    assert notes.instance_state.agent_readable == ("text",)
    assert load_manifest(BUNDLED["pomodoro"], runtime_tools=TOOLS).instance_state.agent_readable == ()
    data = bundled("notes")
    data["instance_state"]["agent_readable"] = ["text", "secret"]
    with pytest.raises(ManifestError) as error:
        load_manifest(write_manifest(tmp_path / "notes", data), runtime_tools=TOOLS)
    assert "instance_state/agent_readable/1: 'secret' is not a property of the state_schema" in str(error.value)


def test_an_apps_own_translations_are_read_and_checked(tmp_path):
    data = bundled("notes")
    data["translations"] = {"zh-hans": {"name": "便签本"}}
    manifest = load_manifest(write_manifest(tmp_path / "ok", data), runtime_tools=TOOLS)
    assert manifest.words("zh-hans") == {"name": "便签本"} and manifest.words("en") == {}
    data["translations"] = {"zh-hans": {"title": "x"}}
    with pytest.raises(ManifestError) as error:
        load_manifest(write_manifest(tmp_path / "bad", data), runtime_tools=TOOLS)
    assert "translations/zh-hans" in str(error.value)


def test_the_page_shows_an_apps_own_words_in_its_language(tmp_path, settings):
    """An app that is not bundled (its words are in no catalog) is named in the page's language from
    its manifest's translations; a language it does not list gets its own English."""
    from django.utils import translation

    from interact import views
    from runtime import manifests

    copy_bundled(
        tmp_path,
        change={"notes": lambda data: data.update(translations={"zh-hans": {"name": "我的便签"}})},
    )
    settings.LINEUP_MANIFEST_GLOBS = [
        str(tmp_path / "interact/manifest.json"),
        str(tmp_path / "miniapps/*/manifest.json"),
    ]
    manifests.registry.cache_clear()
    try:
        with translation.override("zh-hans"):
            assert views.app_names()["notes"] == "我的便签"
            assert views.app_names()["pomodoro"] == "番茄钟"  # a bundled app's, from the catalog
        with translation.override("en"):
            assert views.app_names()["notes"] == "Scratch notes"
    finally:
        manifests.registry.cache_clear()


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda p: p["tools"].update(read="pomodoro.read"), "tools/read: 'pomodoro.read' is not a tool of this app"),
        (lambda p: p["tools"].update(stop="quiz.stop"), "tools/stop: 'quiz.stop' is not a tool of this app"),
        (
            lambda p: p["arguments"].update(activity="topic"),
            "arguments/activity: 'topic' is not an argument of its start tool",
        ),
        (
            lambda p: p["languages"]["en"].update(start=["focus {minutes}"]),
            "languages/en/start/0: unknown slot 'minutes'",
        ),
        (lambda p: p["languages"].pop("zh-hans"), "languages: 'zh-hans' is a required property"),
        # Version 2 (decision 0057): what the generic grammar needs refers to what the app has.
        (lambda p: p.update(phrasings_version=3), "phrasings_version: 3 is not one of [1, 2]"),
        (
            lambda p: p.update(phrasings_version=1),
            "grammar: needs phrasings_version 2",
        ),
        (
            lambda p: p["arguments"].pop("activity"),
            "grammar/activity: needs arguments/activity",
        ),
        (
            lambda p: p.update(report={"score": "score.correct"}),
            "report/score: 'score.correct' is not a field of its start tool's result",
        ),
        (
            lambda p: p["grammar"].update(choice={"default": "long", "values": ["short"]}),
            "grammar/choice/default: 'long' is not one of its values",
        ),
        (
            lambda p: p["grammar"].update(choice={"default": "short", "values": ["short"]}),
            "languages/en/choices: 'short' has no name",
        ),
        (
            lambda p: p["grammar"].update(
                generate={"argument": "questions", "generator": "arithmetic", "count": 2, "operations": {}}
            ),
            "grammar/generate/argument: 'questions' is not an argument of its start tool",
        ),
        # What an app declines (decision 0064) is a pattern like its others, checked at start-up.
        (
            lambda p: p["languages"]["en"].update(declines=["(division"]),
            "languages/en/declines/0: missing ), unterminated subpattern at position 0",
        ),
        # ... and so is the work it calls unclear between it and the default app (decision 0069).
        (
            lambda p: p["languages"]["zh-hans"].update(unclear=["数学("]),
            "languages/zh-hans/unclear/0: missing ), unterminated subpattern at position 2",
        ),
    ],
)
def test_phrasings_beside_a_manifest_are_read_and_checked(change, expected, tmp_path):
    """``phrasings.json`` beside a manifest is loaded with it (decision 0050); a tool that is not the app's,
    an argument its tool does not take, an unknown slot or a missing language is an error naming the file
    and the field; so is a version 2 grammar, report or choice that refers to what the app lacks, or version
    2's fields under version 1."""
    assert load_manifest(BUNDLED["pomodoro"], runtime_tools=TOOLS).phrasings["tools"]["start"] == "pomodoro.start"
    phrasings = json.loads((BUNDLED["pomodoro"].parent / "phrasings.json").read_text(encoding="utf-8"))
    path = write_manifest(tmp_path / "pomodoro", bundled("pomodoro"))
    assert load_manifest(path, runtime_tools=TOOLS).phrasings is None  # none declared: none published
    change(phrasings)
    write_manifest(tmp_path / "pomodoro", phrasings, name="phrasings.json")
    with pytest.raises(ManifestError) as error:
        load_manifest(path, runtime_tools=TOOLS)
    assert str(error.value) == f"{tmp_path / 'pomodoro' / 'phrasings.json'}: {expected}"


def test_phrasings_version_1_is_still_accepted(tmp_path):
    """A ``phrasings.json`` of version 1 (no grammar, report or words) loads as before (decision 0057)."""
    phrasings = json.loads((BUNDLED["pomodoro"].parent / "phrasings.json").read_text(encoding="utf-8"))
    phrasings["phrasings_version"] = 1
    for key in ("grammar", "report", "offer_again"):
        phrasings.pop(key, None)
    for words in phrasings["languages"].values():
        for key in ("words", "patterns", "nouns", "keywords", "typos", "choices", "suggestions"):
            words.pop(key, None)
    path = write_manifest(tmp_path / "pomodoro", bundled("pomodoro"))
    write_manifest(tmp_path / "pomodoro", phrasings, name="phrasings.json")
    assert load_manifest(path, runtime_tools=TOOLS).phrasings["phrasings_version"] == 1
