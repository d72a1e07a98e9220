"""OpenTelemetry traces: one trace from an Agent's ``tool.call`` to its ``tool.result``.

Off unless the standard ``OTEL_*`` environment asks for it (``OTEL_EXPORTER_OTLP_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``, or ``OTEL_TRACES_EXPORTER=otlp|console``; never when
``OTEL_SDK_DISABLED=true``); then ``configure()`` — called by the Daphne application and by each
Celery worker child — installs the SDK with a batching exporter, named by ``OTEL_SERVICE_NAME``
(default ``lineup``). Off, every function here is a cheap no-op.

The spans, each with the ids it concerns as attributes (``lineup.operation_id``):

    tool.call (the Agent socket, or an MCP request continuing the caller's ``traceparent``)
      └ decision start_operation
          └ task runtime.tasks.settle_operation (the worker; its parent travels in the eta
            task's message headers)
              └ decision settle_operation
                  └ tool.result (the Daphne that delivers it; its parent travels in the
                    settlement's channel-layer hint)

Context crosses processes as W3C trace context (``traceparent``) in a plain dict, captured where
the work is arranged (inside the deciding span), not where it is later sent: hints and eta
publishes leave after the answer, outside any span.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from typing import Any

from opentelemetry import propagate, trace

_tracer: trace.Tracer | None = None  # None: tracing is off in this process


def enabled() -> bool:
    return _tracer is not None


def wanted() -> bool:
    """Whether the ``OTEL_*`` environment asks for traces."""
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    exporter = os.environ.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if exporter == "none":
        return False
    endpoints = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    return bool(exporter) or any(os.environ.get(name) for name in endpoints)


def configure() -> None:
    """Install the SDK as the process's tracer provider when the environment asks for it."""
    global _tracer
    if _tracer is not None or not wanted():
        return
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SpanExporter

    exporter: SpanExporter
    if os.environ.get("OTEL_TRACES_EXPORTER", "").strip().lower() == "console":
        exporter = ConsoleSpanExporter()
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        exporter = OTLPSpanExporter()  # endpoint, headers, timeout: from OTEL_EXPORTER_OTLP_*
    service = os.environ.get("OTEL_SERVICE_NAME") or "lineup"
    provider = TracerProvider(resource=Resource.create({"service.name": service}))
    provider.add_span_processor(BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    use_provider(provider)


def use_provider(provider: trace.TracerProvider | None) -> None:
    """Trace with ``provider`` (None: stop tracing). ``configure`` calls it; tests pass their own."""
    global _tracer
    _tracer = provider.get_tracer("lineup") if provider is not None else None


def carrier() -> dict[str, str]:
    """The current trace context as headers (``traceparent``), to hand to another process; {} when off."""
    if _tracer is None:
        return {}
    headers: dict[str, str] = {}
    propagate.inject(headers)
    return headers


@contextlib.contextmanager
def span(
    name: str, *, parent: Mapping[str, str] | None = None, attributes: Mapping[str, Any] | None = None
) -> Iterator[trace.Span | None]:
    """A span around the block, current inside it; a child of ``parent`` (a ``carrier()``) when given,
    else of the current span. Yields None when tracing is off."""
    if _tracer is None:
        yield None
        return
    context = propagate.extract(dict(parent)) if parent else None
    attrs = {k: str(v) for k, v in (attributes or {}).items() if v is not None}
    with _tracer.start_as_current_span(name, context=context, attributes=attrs) as current:
        yield current


def annotate(current: trace.Span | None, **attributes: Any) -> None:
    """Add attributes learnt inside the block (e.g. the operation id a decision created)."""
    if current is not None:
        for key, value in attributes.items():
            if value is not None:
                current.set_attribute(f"lineup.{key}", str(value))
