"""The start-up heap leaves the collector's full passes (lineup/heap.py, decision 0059): once
``lineup.asgi`` is imported, and again after the MCP SDK's lazy import on the first ``/mcp/`` request;
``LINEUP_GC_FREEZE=0`` turns it off. Each case in a fresh interpreter, as Daphne imports it."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.support.processes import PYTHON, ROOT, lineup_env

pytestmark = pytest.mark.django_db(transaction=True)

PROBE = """
import asyncio, gc, json, sys

import lineup.asgi

after_import = gc.get_freeze_count()
sdk_at_import = "mcp" in sys.modules


async def first_mcp_request():
    sent = []
    body = [{"type": "http.request", "body": b"{}", "more_body": False}]

    async def receive():  # the client stays until it is answered (the 401 is paced)
        if body:
            return body.pop(0)
        await asyncio.Event().wait()

    async def send(message):
        sent.append(message)

    path = "/mcp/00000000-0000-0000-0000-000000000000/"
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 80),
    }
    await lineup.asgi.application(scope, receive, send)
    return sent[0]["status"]


status = asyncio.run(first_mcp_request())
print(json.dumps({
    "after_import": after_import,
    "sdk_at_import": sdk_at_import,
    "status": status,
    "sdk_after_request": "mcp" in sys.modules,
    "after_request": gc.get_freeze_count(),
}))
"""


def probe(**env: str) -> dict:
    run = subprocess.run(
        [PYTHON, "-c", PROBE],
        cwd=ROOT,
        env=lineup_env(LINEUP_SCHEDULER="none", LINEUP_REFERENCE_AGENT_URL="", **env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_start_up_and_the_mcp_sdk_import_are_frozen():
    seen = probe()
    assert seen["after_import"] > 50_000, seen  # Django, Channels, Twisted, the apps: ~190k in Daphne
    assert not seen["sdk_at_import"], seen  # the SDK comes with the first /mcp/ request only
    assert seen["status"] == 401, seen  # no bearer token: refused before the database
    assert seen["sdk_after_request"], seen
    # The SDK's modules (thousands of objects) were frozen with it, without a second collection.
    assert seen["after_request"] > seen["after_import"] + 5_000, seen


def test_lineup_gc_freeze_0_leaves_the_heap_to_the_collector():
    seen = probe(LINEUP_GC_FREEZE="0")
    assert seen["after_import"] == 0 and seen["after_request"] == 0, seen
    assert seen["status"] == 401, seen
