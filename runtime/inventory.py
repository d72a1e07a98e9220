"""The Agent Inventory: the tools published to one conversation, with a revision.

Only descriptors from validated manifests are published, and only to conversations whose scope
the tool lists (SPEC R-3.11). The revision is a digest of exactly what is published, so it is
the same in every process and changes whenever the published set or any descriptor changes;
a tool call carrying another revision is rejected ``stale_inventory``.

Beside the tools, ``apps``: each app with a tool published here, by ``app_id`` and ``name``, with the
``phrasings`` its package declares (how people ask for it, and how an Agent answers; decision 0050)
when it declares them, and the longest its operation tools may run (``max_duration_seconds``). They are not part of the revision: it guards the contract of the calls, which
words do not change; an Agent gets them afresh with every ``inventory.get``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from runtime.manifests import Manifest, ToolDescriptor, registry


@dataclass(frozen=True)
class Inventory:
    scope: str
    revision: str
    tools: tuple[ToolDescriptor, ...]
    apps: tuple[dict[str, Any], ...] = ()

    def get(self, name: str) -> ToolDescriptor | None:
        return self._by_name.get(name)

    @cached_property
    def _by_name(self) -> dict[str, ToolDescriptor]:
        return {t.name: t for t in self.tools}

    def published(self) -> dict[str, Any]:
        return {"revision": self.revision, "tools": [t.published() for t in self.tools], "apps": list(self.apps)}


def build_inventory(manifests: Mapping[str, Manifest], scope: str) -> Inventory:
    """The Inventory that ``manifests`` publish to conversations of ``scope``."""
    tools = tuple(
        sorted(
            (t for m in manifests.values() for t in m.tools if scope in t.conversation_scopes),
            key=lambda t: t.name,
        )
    )
    published = {t.app_id for t in tools}
    apps = tuple(_app(m, tools) for m in sorted(manifests.values(), key=lambda m: m.app_id) if m.app_id in published)
    canonical = json.dumps([t.published() for t in tools], sort_keys=True, separators=(",", ":"))
    revision = "inv-" + hashlib.sha256(canonical.encode()).hexdigest()[:16]
    return Inventory(scope=scope, revision=revision, tools=tools, apps=apps)


def _app(manifest: Manifest, tools: tuple[ToolDescriptor, ...]) -> dict[str, Any]:
    """An app of the Inventory: its id, name, declared phrasings, and the longest each of its published
    operation tools may run (``max_duration_seconds``: tool -> seconds, the manifest's bound, so an Agent
    answers a request beyond it in words rather than with a refused call; decision 0057)."""
    app: dict[str, Any] = {"app_id": manifest.app_id, "name": manifest.name}
    if manifest.phrasings:
        app["phrasings"] = manifest.phrasings
    bounds = {t.name: t.operation.max_duration_seconds for t in tools if t.app_id == manifest.app_id and t.operation}
    if bounds:
        app["max_duration_seconds"] = bounds
    return app


def inventory_for_scope(scope: str) -> Inventory:
    """The Inventory this process publishes (its validated manifests) to ``scope``.

    Built once per scope and kept: every tool call reads it, and its revision is a digest of every
    published descriptor. Built again only when the registry holds other manifests (a reload, or a
    test that registers one): the key is the manifests themselves, by identity.
    """
    manifests = tuple(registry().values())
    built = _BUILT.get(scope)
    if (
        built is None
        or len(built[0]) != len(manifests)
        or any(a is not b for a, b in zip(built[0], manifests, strict=True))
    ):
        built = _BUILT[scope] = (manifests, build_inventory(registry(), scope))
    return built[1]


# scope -> (the manifests it was built from, kept so their identities stay theirs; the Inventory)
_BUILT: dict[str, tuple[tuple[Manifest, ...], Inventory]] = {}
