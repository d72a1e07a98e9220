"""The MiniApps this process runs: what each registered from its Django ``AppConfig.ready()``.

A MiniApp is a Django app under ``miniapps/`` that calls ``runtime.api.register_miniapp`` with its
tool handlers and the functions that shape its operations' results and projections
(docs/miniapps.md). Its manifest is still read and validated by ``runtime.manifests``; a manifest
tool without a registered handler is a start-up error. Registration happens before the Runtime's
own ``ready()`` validates the manifests (the MiniApps are listed before ``runtime`` in
``INSTALLED_APPS``), so a process never publishes a tool it can not run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from runtime.tool_calls import Accepted, Receipt, ToolRequest

ToolHandler = Callable[["ToolRequest"], "Accepted | Receipt"]
# Given the operation's read-only ``OperationView`` (runtime.api). Not imported for the annotation:
# the module that defines it reads this registry, and no module imports itself back (decision 0052).
ResultBuilder = Callable[[Any], dict[str, Any]]


class RegistrationError(Exception):
    """A MiniApp registered twice, or registered a tool of another app."""


@dataclass(frozen=True)
class MiniApp:
    app_id: str
    tools: Mapping[str, ToolHandler]
    # The final result of an operation of this app (checked against the start tool's result_schema).
    result: ResultBuilder | None = None
    # The app's own fields of its operations' projection (merged after the Runtime's ids).
    projection: ResultBuilder | None = None
    # Keys of its operations' details that no screen shows (e.g. a quiz's answer key): the admin masks them.
    private_details: frozenset[str] = frozenset()
    # What its operations' details keys are called on the operator's pages (lazy translations).
    detail_labels: Mapping[str, Any] = field(default_factory=dict)
    extras: Mapping[str, Any] = field(default_factory=dict)


_REGISTERED: dict[str, MiniApp] = {}


def register(miniapp: MiniApp) -> None:
    if miniapp.app_id in _REGISTERED and _REGISTERED[miniapp.app_id] != miniapp:
        raise RegistrationError(f"MiniApp {miniapp.app_id!r} is already registered")
    for tool in miniapp.tools:
        if not tool.startswith(f"{miniapp.app_id}."):
            raise RegistrationError(f"{miniapp.app_id!r} can not register {tool!r}: not its tool")
    _REGISTERED[miniapp.app_id] = miniapp


def registered(app_id: str) -> MiniApp | None:
    return _REGISTERED.get(app_id)


def handler(tool: str) -> ToolHandler | None:
    miniapp = _REGISTERED.get(tool.split(".", 1)[0])
    return miniapp.tools.get(tool) if miniapp else None


def registered_tools() -> frozenset[str]:
    """Every tool some registered MiniApp handles: what a manifest may publish."""
    return frozenset(tool for miniapp in _REGISTERED.values() for tool in miniapp.tools)


def detail_label(app_id: str, key: str) -> str:
    """What ``app_id`` calls its details key ``key`` on an operator's page (the key itself if unnamed)."""
    miniapp = _REGISTERED.get(app_id)
    return str(miniapp.detail_labels.get(key, key)) if miniapp else key


def private_details_of(app_id: str) -> frozenset[str]:
    """The details keys ``app_id`` registered as private (none for an app that is not registered)."""
    miniapp = _REGISTERED.get(app_id)
    return miniapp.private_details if miniapp else frozenset()


MASKED = "•••"  # a private detail's value wherever it is shown or logged


def private_keys() -> frozenset[str]:
    """Every key any registered MiniApp declared private."""
    return frozenset(key for miniapp in _REGISTERED.values() for key in miniapp.private_details)


def redact_private(value: Any) -> Any:
    """``value`` (JSON-plain) with the value of every private key masked, at any depth: in an
    operation's details, in the arguments of the tool call that started it, in an event's data.

    By key name, whichever app the value came from: an event or a log line does not always say
    which app wrote it, and masking one app's key name in another's data hides nothing secret."""
    keys = private_keys()
    return _redacted(value, keys) if keys else value


def _redacted(value: Any, keys: frozenset[str]) -> Any:
    if isinstance(value, dict):
        return {k: MASKED if k in keys else _redacted(v, keys) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redacted(v, keys) for v in value]
    return value
