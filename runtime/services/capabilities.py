"""The Capability Gateway: the only door from a MiniApp to anything beyond its Surface.

A Surface has no network, no host API and no system API (SPEC R-2.3.5); what it may need beyond
drawing itself it asks for here, through the SDK's ``requestCapability`` (R-2.2.9, R-4.4.6). A
request is granted only if the app's manifest declares the capability AND the Runtime provides it.
This iteration provides none (system notifications are out of scope, SPEC §5), so every request is
denied with a stable reason — and recorded, so an operator can see what apps ask for.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from runtime.errors import Rejection, RejectionCode
from runtime.events import record_event
from runtime.manifests import get_manifest
from runtime.models import AppInstance
from runtime.transitions import LifecycleState

# Capabilities the Runtime can grant, by name -> handler. Empty on purpose: see the module docstring.
PROVIDED_CAPABILITIES: dict[str, Any] = {}


@dataclass(frozen=True)
class CapabilityDecision:
    name: str
    granted: bool
    reason: str  # "granted", "not_declared" or "not_provided"


def request_capability(
    *, conversation_id: uuid.UUID | str, instance_id: uuid.UUID | str, name: str, now: datetime
) -> CapabilityDecision:
    """Decide one capability request from an open instance of this conversation."""
    instance = AppInstance.objects.filter(pk=instance_id, conversation_id=conversation_id).first()
    if instance is None:
        raise Rejection(RejectionCode.UNKNOWN_INSTANCE, "no such app instance in this conversation")
    if instance.lifecycle_state == LifecycleState.CLOSED:
        raise Rejection(RejectionCode.INSTANCE_CLOSED, "a closed instance can not request capabilities")
    manifest = get_manifest(instance.app_id)
    if manifest is None or name not in manifest.capabilities:
        reason = "not_declared"
    elif name not in PROVIDED_CAPABILITIES:
        reason = "not_provided"
    else:
        reason = "granted"
    decision = CapabilityDecision(name=name, granted=reason == "granted", reason=reason)
    record_event(
        "capability.granted" if decision.granted else "capability.denied",
        at=now,
        conversation_id=conversation_id,
        instance_id=instance.id,
        level="info" if decision.granted else "warning",
        capability=name[:128],
        reason=reason,
        app_id=instance.app_id,
    )
    return decision
