"""A switch in the page's ``/ws/workspace/`` connection (Playwright's WebSocket routing), to lose frames
on purpose: the page talks to the real Daphne through it, and a test can hold back the page's
``message.send`` frames, cut a connection right after one went through (so its answer is lost), or
cut every connection (the page reconnects by itself).

A cut connection is dead both ways at once: frames still in flight on it in either direction are
dropped, never forwarded late — a real dropped socket delivers nothing after the drop, and a late
frame would hide a lost one.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, WebSocketRoute

WORKSPACE_SOCKET = re.compile(r"/ws/workspace/")
CLOSE_CODE = 4000  # not 4401 (that sends the page to the login): the page just reconnects


def _frame_type(message: str | bytes) -> str | None:
    try:
        frame = json.loads(message)
    except (TypeError, ValueError):
        return None
    return frame.get("type") if isinstance(frame, dict) else None


@dataclass
class _Link:
    page_side: WebSocketRoute
    server_side: WebSocketRoute
    cut: bool = False


@dataclass
class SocketSwitch:
    page: Page
    holding_sends: bool = False  # the page's message.send frames are dropped (lost in flight)
    cut_after_send: bool = False  # the next message.send goes through, then the connection is cut
    links: list[_Link] = field(default_factory=list)
    held: list[dict[str, Any]] = field(default_factory=list)  # message.send frames dropped
    forwarded: list[dict[str, Any]] = field(default_factory=list)  # message.send frames that reached the server
    lock: threading.Lock = field(default_factory=threading.Lock)

    def install(self) -> SocketSwitch:
        self.page.route_web_socket(WORKSPACE_SOCKET, self._route)
        return self

    def _route(self, page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()
        link = _Link(page_side, server_side)
        with self.lock:
            self.links.append(link)
        page_side.on_message(lambda message: self._to_server(link, message))
        server_side.on_message(lambda message: self._to_page(link, message))

    def _to_server(self, link: _Link, message: str | bytes) -> None:
        if link.cut:
            return
        is_send = _frame_type(message) == "message.send"
        if is_send and self.holding_sends:
            self.held.append(json.loads(message))
            return
        link.server_side.send(message)
        if is_send:
            self.forwarded.append(json.loads(message))
            if self.cut_after_send:
                self.cut_after_send = False
                self._cut(link)  # it reached the server; its answer never reaches the page

    def _to_page(self, link: _Link, message: str | bytes) -> None:
        if not link.cut:
            link.page_side.send(message)

    def _cut(self, link: _Link) -> None:
        if link.cut:
            return
        link.cut = True
        link.page_side.close(code=CLOSE_CODE, reason="cut by the test")
        link.server_side.close(code=CLOSE_CODE, reason="cut by the test")

    def cut_all(self) -> None:
        """Every live connection dies now; the page reconnects through a new one."""
        with self.lock:
            links = [link for link in self.links if not link.cut]
        for link in links:
            self._cut(link)

    def wait(self, probe: Callable[[], Any], what: str, timeout: float = 15.0) -> Any:
        """Poll ``probe`` until it is truthy, letting Playwright run meanwhile: the forwarding above
        runs in Playwright's dispatcher, which a plain sleep would stop."""
        deadline = time.monotonic() + timeout
        while True:
            value = probe()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout}s waiting for {what}")
            self.page.wait_for_timeout(50)  # the poll interval; frames are forwarded meanwhile

    @property
    def live_connections(self) -> int:
        with self.lock:
            return sum(1 for link in self.links if not link.cut)
