"""Manifests: loading, validation at start-up, and the compiled validators they carry.

A manifest that does not validate is a start-up error naming the file and the field, so the
Inventory can only ever publish validated descriptors (SPEC R-3.11). Input and state schemas are
compiled once here; ``duration_seconds: true`` or ``1.0`` are not integers (see
docs/decisions/0002-jsonschema-validation.md).
"""

from __future__ import annotations

import glob
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import SchemaError, ValidationError

from runtime.miniapps import registered_tools

MANIFEST_SCHEMA_PATH = Path(__file__).resolve().parent / "schemas" / "manifest.schema.json"
PHRASINGS_SCHEMA_PATH = Path(__file__).resolve().parent / "schemas" / "phrasings.schema.json"
# Beside a manifest: how people ask for the app in words, published in the Inventory (decision 0050).
PHRASINGS_FILE = "phrasings.json"
PHRASING_SLOTS = frozenset({"duration", "activity", "topic", "text"})
INSTANCE_STATE_FEATURE = "app.instance-state.v1"


def _is_strict_integer(checker: Any, instance: object) -> bool:
    # Python's bool is an int and jsonschema accepts 1.0 as an integer; a Runtime that turns
    # those into focus durations would surprise everyone, so only real ints pass.
    return isinstance(instance, int) and not isinstance(instance, bool)


StrictValidator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_strict_integer),
)


def first_error(validator: Any, instance: object) -> tuple[str, str] | None:
    """The first schema violation, deterministic across runs: ``(field path, message)`` or None.

    The path is ``a/b/0``, or "" for the instance itself.
    """
    errors = sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path])
    if not errors:
        return None
    return "/".join(str(p) for p in errors[0].absolute_path), _plain_message(errors[0])


ECHO_LIMIT = 64  # characters of a refused value a message may quote; longer ones are described instead


def _plain_message(error: Any) -> str:
    """jsonschema's message, without echoing a long value back (a 4 001-character text, a big object).

    Its messages quote the value as ``repr``; a short one is useful context, a long one is only
    the caller's own input sent back (and logged) again.
    """
    value = error.instance
    if error.validator in ("maxLength", "minLength") and isinstance(value, str):
        bound = "at most" if error.validator == "maxLength" else "at least"
        return f"is {len(value)} characters long; {bound} {error.validator_value} allowed"
    quoted = repr(value)
    if len(quoted) <= ECHO_LIMIT or quoted not in error.message:
        return error.message
    if isinstance(value, str):
        described = f"a string of {len(value)} characters"
    elif isinstance(value, dict):
        described = f"an object of {len(value)} fields"
    elif isinstance(value, list):
        described = f"an array of {len(value)} items"
    else:
        described = f"a {type(value).__name__} value"
    return error.message.replace(quoted, described)


class ManifestError(Exception):
    """A manifest failed validation; the message names the file and the field."""


@dataclass(frozen=True)
class OperationPolicy:
    """How the Runtime runs the deadline operation a tool starts (the manifest's ``deadline_operation``).

    Not published: the Agent sees its effects (a rejection code, a bound in MCP's ``inputSchema``),
    and the Inventory revision stays a digest of exactly what is published.
    """

    exclusive: bool = True  # at most one running per app and conversation
    busy_rejection_code: str = "operation_running"  # what a start is refused with while one runs
    ends_when_left: bool = True  # the user leaving the app (back to Interact, another app) ends it
    max_duration_seconds: int = 24 * 60 * 60  # the Runtime's bound, on top of the frozen input schema
    duration_argument: str = "duration_seconds"  # the integer argument that is the duration in seconds
    # The app's own word for an operation that runs: the state its projection, results and status
    # say (runtime.services.operation_views.wire_state), its busy rejection, and what a host calls the
    # app meanwhile (an English word the host translates).
    running_label: str = "running"
    # One rule across apps (decision 0041). Whether this operation runs alone in its conversation:
    # while it runs, another app's start either switches (ends this one ``interrupted(switched_app)``,
    # as the person switching away would) or is refused with ``alone_rejection_code``.
    conversation_exclusive: bool = False
    when_another_app_starts: str = "switch"  # "switch" or "refuse"; only for a conversation-exclusive one
    alone_rejection_code: str = "exclusive_operation_running"


@dataclass(frozen=True)
class ToolDescriptor:
    name: str
    version: int
    app_id: str
    call_model: str  # "operation" (long, reports one final result) or "short" (receipt)
    description: str
    conversation_scopes: tuple[str, ...]
    input_schema: dict[str, Any]
    result_schema: dict[str, Any]
    input_validator: Any = field(compare=False, repr=False)
    result_validator: Any = field(compare=False, repr=False)
    operation: OperationPolicy | None = None  # for call_model "operation"

    def published(self) -> dict[str, Any]:
        """The descriptor as the Agent sees it in the Inventory."""
        return {
            "name": self.name,
            "version": self.version,
            "app_id": self.app_id,
            "call_model": self.call_model,
            "description": self.description,
            "input_schema": self.input_schema,
            "result_schema": self.result_schema,
        }


@dataclass(frozen=True)
class InstanceStateContract:
    schema_version: int
    schema: dict[str, Any]
    max_bytes: int
    retention: str
    validator: Any = field(compare=False, repr=False)
    # Top-level properties of the state an Agent may read (``agent_readable``); none by default.
    agent_readable: tuple[str, ...] = ()


@dataclass(frozen=True)
class Manifest:
    app_id: str
    name: str
    version: str
    kind: str  # "system" or "bundled"
    path: Path
    user_launchable: bool
    surface_entry: str | None
    capabilities: tuple[str, ...]
    instance_state: InstanceStateContract | None
    tools: tuple[ToolDescriptor, ...]
    # The app's own words in other languages (``translations``: language code -> {name, running_label}),
    # for an app whose words are not in the project's catalog.
    translations: dict[str, dict[str, str]] = field(default_factory=dict, compare=False)
    # ``phrasings.json`` beside the manifest, validated; None when the app declares none.
    phrasings: dict[str, Any] | None = field(default=None, compare=False)

    def words(self, language: str | None) -> dict[str, str]:
        """The app's words in ``language`` (a Django language code), or none."""
        return self.translations.get((language or "").lower(), {})

    @property
    def is_system(self) -> bool:
        return self.kind == "system"


def _field_path(error: ValidationError | SchemaError) -> str:
    parts = [str(p) for p in error.absolute_path]
    return "/".join(parts) if parts else "(root)"


def _compile(schema: dict[str, Any], *, path: Path, where: str) -> Any:
    try:
        StrictValidator.check_schema(schema)
    except SchemaError as exc:
        # Point into the schema too (".../properties/duration_seconds/type"), not only at it.
        inner = "".join(f"/{p}" for p in exc.absolute_path)
        raise ManifestError(f"{path}: {where}{inner}: not a valid JSON Schema: {exc.message}") from exc
    return StrictValidator(schema)


@cache
def _manifest_validator() -> Draft202012Validator:
    schema = json.loads(MANIFEST_SCHEMA_PATH.read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@cache
def _phrasings_validator() -> Draft202012Validator:
    schema = json.loads(PHRASINGS_SCHEMA_PATH.read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _read_valid_json(path: Path, validator: Draft202012Validator) -> Any:
    """The JSON document in ``path``, valid for ``validator``; else ManifestError naming the file and field."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{path}: can not be read: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise ManifestError(f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
    error = first_error(validator, raw)
    if error is not None:
        where, message = error
        raise ManifestError(f"{path}: {where or '(root)'}: {message}")
    return raw


_SLOT = re.compile(r"\{([^{}]*)\}")


def load_phrasings(path: Path, tools: tuple[ToolDescriptor, ...]) -> dict[str, Any] | None:
    """``phrasings.json`` beside the manifest at ``path``, checked against the app's own tools; None if absent.

    Every tool it names is one of the app's, every argument a property of the tool the slot fills, and
    every ``{slot}`` in a phrasing a known slot: an Agent can act on it without guessing.
    """
    file = path.parent / PHRASINGS_FILE
    if not file.exists():
        return None
    raw = _read_valid_json(file, _phrasings_validator())
    by_name = {tool.name: tool for tool in tools}
    for request, name in raw["tools"].items():
        if name not in by_name:
            raise ManifestError(f"{file}: tools/{request}: {name!r} is not a tool of this app")
    filled_by = {
        "duration": "start",
        "activity": "start",
        "topic": "start",
        "choice": "start",
        "choice_name": "start",
        "text": "add",
    }
    for slot, argument in raw.get("arguments", {}).items():
        tool = by_name.get(raw["tools"].get(filled_by[slot], ""))
        if tool is None or argument not in tool.input_schema.get("properties", {}):
            raise ManifestError(
                f"{file}: arguments/{slot}: {argument!r} is not an argument of its {filled_by[slot]} tool"
            )
    for language, words in raw["languages"].items():
        for request in ("start", "stop", "status", "read", "add"):
            for index, phrasing in enumerate(words.get(request, [])):
                unknown = set(_SLOT.findall(phrasing)) - PHRASING_SLOTS
                if unknown:
                    raise ManifestError(
                        f"{file}: languages/{language}/{request}/{index}: unknown slot {sorted(unknown)[0]!r}"
                    )
    _check_grammar(file, raw, by_name.get(raw["tools"].get("start", "")))
    return raw


# What a language block of phrasings_version 1 may not hold (version 2 brought them, decision 0057).
_V2_LANGUAGE_KEYS = (
    "words",
    "patterns",
    "activities",
    "nouns",
    "keywords",
    "typos",
    "choices",
    "declines",
    "unclear",
    "suggestions",
)


def _check_grammar(file: Path, raw: dict[str, Any], start: ToolDescriptor | None) -> None:
    """Version 2's grammar, report and choices (decision 0057) refer to what the app has: a choice's values
    are named in every language, a generated argument and the reported result fields are its start tool's."""
    grammar, report = raw.get("grammar", {}), raw.get("report", {})
    if raw["phrasings_version"] < 2:
        newer = [key for key in ("grammar", "report", "offer_again") if key in raw] + [
            f"languages/{language}/{key}"
            for language, words in raw["languages"].items()
            for key in _V2_LANGUAGE_KEYS
            if key in words
        ]
        if newer:
            raise ManifestError(f"{file}: {newer[0]}: needs phrasings_version 2")
    if (grammar or report or raw.get("offer_again")) and start is None:
        raise ManifestError(f"{file}: grammar: declared without a start tool")
    if grammar.get("suggested_seconds") and "duration" not in raw.get("arguments", {}):
        raise ManifestError(f"{file}: grammar/suggested_seconds: needs arguments/duration")
    if grammar.get("activity") and "activity" not in raw.get("arguments", {}):
        raise ManifestError(f"{file}: grammar/activity: needs arguments/activity")
    choice = grammar.get("choice")
    values = set(choice["values"]) if choice else set()
    if choice and choice["default"] not in values:
        raise ManifestError(f"{file}: grammar/choice/default: {choice['default']!r} is not one of its values")
    for language, words in raw["languages"].items():
        named = set(words.get("choices", {}))
        if named - values:
            raise ManifestError(f"{file}: languages/{language}/choices: {sorted(named - values)[0]!r} is not a value")
        if values - named:
            raise ManifestError(f"{file}: languages/{language}/choices: {sorted(values - named)[0]!r} has no name")
    for language, words in raw["languages"].items():
        for key in ("patterns", "activities", "declines", "unclear"):
            for index, pattern in enumerate(words.get(key, [])):
                try:
                    re.compile(pattern)
                except re.error as exc:
                    raise ManifestError(f"{file}: languages/{language}/{key}/{index}: {exc}") from exc
    generate = grammar.get("generate")
    if generate is not None and start is not None:
        if generate["argument"] not in start.input_schema.get("properties", {}):
            raise ManifestError(
                f"{file}: grammar/generate/argument: {generate['argument']!r} is not an argument of its start tool"
            )
        if set(generate["operations"]) != values:
            raise ManifestError(f"{file}: grammar/generate/operations: one entry per value of grammar/choice")
    for field_name, path in report.items():
        schema: Any = start.result_schema if start is not None else {}
        for part in path.split("."):
            schema = schema.get("properties", {}).get(part) if isinstance(schema, dict) else None
        if schema is None:
            raise ManifestError(f"{file}: report/{field_name}: {path!r} is not a field of its start tool's result")


def _state_contract(raw: dict[str, Any], *, path: Path) -> InstanceStateContract | None:
    """The manifest's ``instance_state`` contract, if its features declare one."""
    if INSTANCE_STATE_FEATURE not in raw.get("features", []):
        if "instance_state" in raw:
            raise ManifestError(f"{path}: instance_state: declared without feature {INSTANCE_STATE_FEATURE}")
        return None
    if "instance_state" not in raw:
        raise ManifestError(f"{path}: instance_state: required by feature {INSTANCE_STATE_FEATURE}")
    spec = raw["instance_state"]
    state_contract = InstanceStateContract(
        schema_version=spec["state_schema_version"],
        schema=spec["state_schema"],
        max_bytes=spec["max_bytes"],
        retention=spec["retention"],
        validator=_compile(spec["state_schema"], path=path, where="instance_state/state_schema"),
        agent_readable=tuple(spec.get("agent_readable", ())),
    )
    declared = spec["state_schema"].get("properties", {})
    for index, name in enumerate(state_contract.agent_readable):
        if name not in declared:
            raise ManifestError(
                f"{path}: instance_state/agent_readable/{index}: {name!r} is not a property of the state_schema"
            )
    return state_contract


def _tool_descriptor(
    tool: dict[str, Any], where: str, *, app_id: str, path: Path, runtime_tools: frozenset[str], seen: set[str]
) -> ToolDescriptor:
    """One published tool, checked: named for its app, once, with a Runtime handler and valid schemas."""
    name = tool["name"]
    if not name.startswith(f"{app_id}."):
        raise ManifestError(f"{path}: {where}/name: {name!r} must start with {app_id + '.'!r}")
    if name in seen:
        raise ManifestError(f"{path}: {where}/name: duplicate tool {name!r}")
    if name not in runtime_tools:
        raise ManifestError(f"{path}: {where}/name: the Runtime has no handler for {name!r}")
    seen.add(name)
    # The schemas first: a policy is checked against a valid input schema only.
    input_validator = _compile(tool["input_schema"], path=path, where=f"{where}/input_schema")
    result_validator = _compile(tool["result_schema"], path=path, where=f"{where}/result_schema")
    policy = None
    if tool["call_model"] == "operation":
        policy = OperationPolicy(**tool.get("deadline_operation", {}))
        argument = tool["input_schema"].get("properties", {}).get(policy.duration_argument)
        if not isinstance(argument, dict) or argument.get("type") != "integer":
            raise ManifestError(
                f"{path}: {where}/deadline_operation/duration_argument: "
                f"{policy.duration_argument!r} is not an integer property of the input schema"
            )
    elif "deadline_operation" in tool:
        raise ManifestError(f"{path}: {where}/deadline_operation: only an operation tool has one")
    return ToolDescriptor(
        name=name,
        version=tool["version"],
        app_id=app_id,
        call_model=tool["call_model"],
        description=tool["description"],
        conversation_scopes=tuple(tool["conversation_scopes"]),
        input_schema=tool["input_schema"],
        result_schema=tool["result_schema"],
        input_validator=input_validator,
        result_validator=result_validator,
        operation=policy,
    )


def load_manifest(path: Path, *, runtime_tools: frozenset[str]) -> Manifest:
    """Read and validate one manifest file; raise ManifestError naming file and field."""
    raw = _read_valid_json(path, _manifest_validator())

    app_id = raw["app_id"]
    state_contract = _state_contract(raw, path=path)
    seen: set[str] = set()
    tools = [
        _tool_descriptor(tool, f"tools/{index}", app_id=app_id, path=path, runtime_tools=runtime_tools, seen=seen)
        for index, tool in enumerate(raw.get("tools", []))
    ]

    if raw["kind"] == "system" and tools:
        raise ManifestError(f"{path}: tools: a system app publishes no tools")

    return Manifest(
        app_id=app_id,
        name=raw["name"],
        version=raw["version"],
        kind=raw["kind"],
        path=path,
        user_launchable=raw.get("user_launchable", False),
        surface_entry=raw.get("surface", {}).get("entry"),
        capabilities=tuple(raw.get("capabilities", [])),
        instance_state=state_contract,
        tools=tuple(tools),
        translations=raw.get("translations", {}),
        phrasings=load_phrasings(path, tuple(tools)),
    )


def load_manifests(paths: list[Path], *, runtime_tools: frozenset[str]) -> dict[str, Manifest]:
    """Load every manifest; app ids and tool names must be unique across all of them."""
    manifests: dict[str, Manifest] = {}
    tool_owner: dict[str, Path] = {}
    for path in sorted(paths):
        manifest = load_manifest(path, runtime_tools=runtime_tools)
        if manifest.app_id in manifests:
            raise ManifestError(
                f"{path}: app_id: {manifest.app_id!r} already declared by {manifests[manifest.app_id].path}"
            )
        for tool in manifest.tools:
            if tool.name in tool_owner:
                raise ManifestError(f"{path}: tools: {tool.name!r} already declared by {tool_owner[tool.name]}")
            tool_owner[tool.name] = path
        manifests[manifest.app_id] = manifest
    if not any(m.is_system for m in manifests.values()):
        raise ManifestError("no system app manifest found (Interact's interact/manifest.json)")
    return manifests


def manifest_paths() -> list[Path]:
    """The files matched by ``LINEUP_MANIFEST_GLOBS``: relative to BASE_DIR, or absolute."""
    base = Path(settings.BASE_DIR)
    # Path.glob refuses absolute patterns; joining keeps an absolute pattern as it is.
    return [
        Path(p)
        for pattern in settings.LINEUP_MANIFEST_GLOBS
        for p in sorted(glob.glob(str(base / pattern), recursive=True))
    ]


@cache
def registry() -> dict[str, Manifest]:
    """The validated manifests of this process, loaded once (at start-up, from AppConfig.ready).

    Every published tool must have a handler some MiniApp registered (``runtime.miniapps``).
    """
    return load_manifests(manifest_paths(), runtime_tools=registered_tools())


def conversation_exclusive_apps() -> frozenset[str]:
    """The apps with an operation tool whose operations run alone in their conversation."""
    return frozenset(
        manifest.app_id
        for manifest in registry().values()
        for tool in manifest.tools
        if tool.operation is not None and tool.operation.conversation_exclusive
    )


def get_manifest(app_id: str) -> Manifest | None:
    return registry().get(app_id)


def get_tool(name: str) -> ToolDescriptor | None:
    """The descriptor of tool ``name`` (whatever conversation it is published to)."""
    manifest = registry().get(name.split(".", 1)[0])
    return next((t for t in manifest.tools if t.name == name), None) if manifest else None


def running_label_of(app_id: str) -> str:
    """The app's word for its running operation (its operation tool's ``running_label``), or the
    Runtime's ``running`` for an app that starts none (or is no longer installed)."""
    manifest = registry().get(app_id)
    tools = manifest.tools if manifest else ()
    return next((t.operation.running_label for t in tools if t.operation), OperationPolicy.running_label)


def system_app_id() -> str:
    return next(m.app_id for m in registry().values() if m.is_system)
