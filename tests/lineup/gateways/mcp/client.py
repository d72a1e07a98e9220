"""A synchronous facade over the official ``mcp`` client, for tests that read the database between calls.

``McpClient`` runs one ``mcp.ClientSession`` over ``streamable_http_client`` (real HTTP to a live
Daphne) on its own event-loop thread; each method submits one request to that loop and waits for
its answer, so the test thread stays synchronous and may use the Django ORM in between.

The SDK (2.3) has no task methods of its own: task-augmented calls and ``tasks/*`` go through its
public ``ClientSession.send_request`` with the ``mcp.types`` task models.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import mcp.types as types
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

IDEMPOTENCY_KEY = "lineup/idempotency_key"
INVENTORY_REVISION = "lineup/inventory_revision"
TIMEOUT = 10.0

T = TypeVar("T")


class McpClient:
    """One MCP client connection (``initialize`` done) with an Agent token."""

    def __init__(self, url: str, token: str | None, *, timeout: float = TIMEOUT) -> None:
        self.url = url
        self.timeout = timeout
        self.session: ClientSession | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-client", daemon=True)
        self._thread.start()
        self._ready: concurrent.futures.Future[types.InitializeResult] = concurrent.futures.Future()
        self._closing: asyncio.Event | None = None
        self._main = asyncio.run_coroutine_threadsafe(self._serve(token), self._loop)
        self._main.add_done_callback(self._ended)
        try:
            self.initialize_result = self._ready.result(timeout)
        except BaseException:
            self.close()
            raise

    async def _serve(self, token: str | None) -> None:
        self._closing = asyncio.Event()
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with (
            create_mcp_http_client(headers=headers) as http,
            streamable_http_client(self.url, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            try:
                result = await session.initialize()
            except Exception as error:
                self._ready.set_exception(error)
                return
            self.session = session
            self._ready.set_result(result)
            await self._closing.wait()

    def _ended(self, main: concurrent.futures.Future[None]) -> None:
        # The connection ended before initialize answered (e.g. the transport failed): say why.
        if not self._ready.done():
            error = main.exception() if not main.cancelled() else None
            self._ready.set_exception(error or RuntimeError("the MCP connection closed before initialize"))

    def run(self, request: Callable[[ClientSession], Awaitable[T]], timeout: float | None = None) -> T:
        """Run ``request(session)`` on the client's loop and return its result."""
        assert self.session is not None
        session = self.session
        future = asyncio.run_coroutine_threadsafe(request(session), self._loop)
        return future.result(timeout or self.timeout)

    # --- MCP requests --------------------------------------------------------------------------

    def list_tools(self) -> types.ListToolsResult:
        return self.run(lambda s: s.list_tools())

    def call(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        key: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> types.CallToolResult:
        meta = {**({IDEMPOTENCY_KEY: key} if key is not None else {}), **(meta or {})}
        return self.run(lambda s: s.call_tool(name, arguments, meta=meta or None))

    def call_as_task(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        key: str | None = None,
        expect: type[T] = types.CreateTaskResult,
    ) -> T:
        """A task-augmented ``tools/call``; ``expect=CallToolResult`` for a call that is rejected."""
        params = types.CallToolRequestParams(
            name=name,
            arguments=arguments,
            task=types.TaskMetadata(),
            _meta={IDEMPOTENCY_KEY: key} if key is not None else None,
        )
        return self.run(lambda s: s.send_request(types.CallToolRequest(params=params), expect))

    def get_task(self, task_id: str) -> types.GetTaskResult:
        request = types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=task_id))
        return self.run(lambda s: s.send_request(request, types.GetTaskResult))

    def task_result(self, task_id: str, timeout: float | None = None) -> types.CallToolResult:
        request = types.GetTaskPayloadRequest(params=types.GetTaskPayloadRequestParams(task_id=task_id))
        return self.run(lambda s: s.send_request(request, types.CallToolResult), timeout)

    def read_resource(self, uri: str) -> types.ReadResourceResult:
        return self.run(lambda s: s.read_resource(uri))

    def close(self) -> None:
        if self._closing is not None:
            self._loop.call_soon_threadsafe(self._closing.set)
        try:
            self._main.result(self.timeout)
        except BaseException:  # a failed connection has nothing left to close
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(self.timeout)
        self._loop.close()
