"""The probe MiniApp: the generic operation's other policies, for the Runtime's tests (issue 35).

Plugged in exactly as a real MiniApp is (its manifest validated by ``runtime.manifests``, its
handlers registered through ``runtime.api``), but only by the ``probe`` fixture (tests/conftest.py),
so the bundled Inventory and its revision never see it. Its tools:

* ``probe.start {minutes, topic?, outcome?}`` not exclusive, not ended by leaving (the person may
  go back to Interact); ``minutes`` counts seconds, to keep the test clock short. ``outcome``
  asks for a deliberately bad result: ``invalid`` (breaks its result_schema) or ``raise``.
* ``probe.solo {minutes}`` exclusive per app, refused ``probe_busy`` while one runs.
* ``probe.alone {minutes}`` runs alone in its conversation: another app's start is refused
  ``probe_alone`` while it runs; leaving ends it.
* ``probe.stop {operation_id?}`` stops the named one, or the only one (an ambiguous stop is refused).
* ``probe.halt {}`` and ``probe.echo {}``: short tools with deliberately bad receipts.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from runtime.api import (
    Accepted,
    OperationView,
    Receipt,
    ToolRequest,
    interrupt_operation,
    register_miniapp,
    standard_result,
    start_operation,
)

APP_ID = "probe"
MANIFEST = Path(__file__).resolve().parent / "manifest.json"


def start(request: ToolRequest) -> Accepted:
    details = {key: request.arguments[key] for key in ("topic", "outcome") if key in request.arguments}
    return start_operation(
        request, duration_seconds=request.arguments["minutes"], details=details, initial_state={"answers": []}
    )


def stop(request: ToolRequest) -> Receipt:
    return interrupt_operation(request, operation_id=request.arguments.get("operation_id"))


def halt(request: ToolRequest) -> Receipt:
    return interrupt_operation(request)


def echo(request: ToolRequest) -> Receipt:
    return Receipt(source_tool_call_id=request.source_tool_call_id, receipt={"echo": 42})


def result(view: OperationView) -> dict[str, Any]:
    outcome = view.details.get("outcome")
    if outcome == "raise":
        raise RuntimeError("the probe's result builder failed on purpose")
    answers = (view.instance_state or {}).get("answers", [])
    score: Any = sum(1 for a in answers if a == "right")
    return {**standard_result(view), "score": "many" if outcome == "invalid" else score}


def projection(view: OperationView) -> dict[str, Any]:
    topic = view.details.get("topic")
    return {"topic": topic, **({"label": topic} if topic else {})}


HANDLERS = {
    "probe.start": start,
    "probe.solo": start,
    "probe.alone": start,
    "probe.stop": stop,
    "probe.halt": halt,
    "probe.echo": echo,
}


@contextlib.contextmanager
def plugged_in() -> Iterator[None]:
    """The probe in this process's registry while the block runs (the ``probe`` fixture)."""
    from runtime import miniapps
    from runtime.manifests import load_manifest, registry

    manifest = load_manifest(MANIFEST, runtime_tools=frozenset(HANDLERS))
    miniapps._REGISTERED.pop(APP_ID, None)
    register_miniapp(APP_ID, tools=HANDLERS, result=result, projection=projection)
    registry()[APP_ID] = manifest
    try:
        yield
    finally:
        registry().pop(APP_ID, None)
        miniapps._REGISTERED.pop(APP_ID, None)
