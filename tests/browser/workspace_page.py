"""What a person sees and does on the workspace page, as a small page object, plus DB probes.

Locators follow what the page shows (the app bar chips, the IM's blocks and interactions, the
foreground app's frame) through stable ``data-*`` attributes the host sets for every item.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connections
from playwright.sync_api import Frame, Locator, Page, expect

from interact.models import Interaction, InteractionStatus, Message
from runtime.models import AppInstance, AppSession, Conversation, LifecycleEvent, Operation, OutboxEntry
from runtime.transitions import OperationState

COUNTDOWN = re.compile(r"^\d{2}:\d{2}$")
T = TypeVar("T")


def off_the_loop(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a service from another thread: Playwright's sync API keeps an event loop running in
    this one, where asgiref refuses async_to_sync, so the service's on-commit projection to the
    channel layer would be dropped and the page would never hear of it."""

    def run() -> T:
        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


@dataclass
class WorkspacePage:
    page: Page
    base_url: str

    # --- navigation ------------------------------------------------------------------------------

    def open(self) -> None:
        self.page.goto(f"{self.base_url}/workspace/")
        self.wait_ready()

    def wait_ready(self) -> None:
        self.page.wait_for_selector("body[data-ready='true'][data-connection='open']")

    def reload(self) -> None:
        self.page.reload()
        self.wait_ready()

    # --- Interact ----------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """Write to the Agent: in the IM, or in Interact's dock while a MiniApp is in front."""
        field = self.page.locator("#composer-input") if self.interact_in_front() else self.page.locator("#dock-input")
        expect(field).to_be_enabled()
        field.fill(text)
        field.press("Enter")
        expect(field).to_have_value("")

    def interact_in_front(self) -> bool:
        return self.page.locator("#interact-view").is_visible()

    def expect_interact_in_front(self) -> None:
        expect(self.page.locator("#interact-view")).to_be_visible()
        expect(self.page.locator("#app-view")).to_be_hidden()

    def block(self, app_session_id: str) -> Locator:
        return self.page.locator(f"#timeline details.block[data-app-session-id='{app_session_id}']")

    def interaction(self, *, kind: str, status: str = "pending", within: str = "#timeline") -> Locator:
        return self.page.locator(f"{within} section.interaction[data-kind='{kind}'][data-status='{status}']")

    # --- the app bar ---------------------------------------------------------------------------

    def chip(self, instance_id: str) -> Locator:
        return self.page.locator(f"#appbar li.chip[data-instance-id='{instance_id}']")

    def expect_chip_state(self, instance_id: str, state: str) -> None:
        expect(self.chip(instance_id)).to_have_attribute("data-state", state)
        if state == "closed":
            # Closed apps leave the bar: they are listed, with their state, in its folded "closed" menu.
            closed = self.page.locator(f"#closed-chips li.chip[data-instance-id='{instance_id}']")
            expect(closed.locator(".state-closed")).to_have_count(1)
            expect(self.page.locator(f"#open-chips li.chip[data-instance-id='{instance_id}']")).to_have_count(0)
            return
        expect(self.chip(instance_id).locator(f".state-{state}")).to_be_visible()

    def interact_chip(self) -> Locator:
        return self.page.locator("#appbar li.chip[data-app-id='interact']")

    # --- a MiniApp in front ----------------------------------------------------------------------

    def expect_app_in_front(self, app_id: str) -> None:
        expect(self.page.locator("#app-view")).to_be_visible()
        expect(self.page.locator(f"#frames iframe[data-app-id='{app_id}']:not([hidden])")).to_be_visible()

    def surface(self, instance_id: str, timeout_s: float = 10.0) -> Frame:
        """The Surface's frame. An attached iframe may have no frame yet (Chromium creates it a
        moment later, later still on a loaded machine, and a redraw may replace the element), so
        this polls, with a deadline, until one has."""
        selector = f"#frames iframe[data-instance-id='{instance_id}']"
        deadline = time.monotonic() + timeout_s
        while (frame := self.page.wait_for_selector(selector, state="attached").content_frame()) is None:
            assert time.monotonic() < deadline, f"the Surface of {instance_id} got no frame in {timeout_s} s"
            self.page.wait_for_timeout(50)
        return frame

    def pomodoro_countdown(self, instance_id: str) -> Locator:
        return self.page.frame_locator(f"#frames iframe[data-instance-id='{instance_id}']").locator("#countdown")

    def expect_countdown(self, instance_id: str, *, activity: str | None) -> str:
        frame = self.page.frame_locator(f"#frames iframe[data-instance-id='{instance_id}']")
        expect(frame.locator("#countdown")).to_have_text(COUNTDOWN)
        if activity is not None:
            expect(frame.locator("#activity")).to_have_text(activity)
        return frame.locator("#countdown").inner_text()

    def leave_dialog(self) -> Locator:
        return self.page.locator("#leave-dialog")

    def confirm_leaving(self, expected_words: str) -> None:
        """The host said, before anything was sent, that leaving ends the focus; confirm it."""
        dialog = self.leave_dialog()
        expect(dialog).to_be_visible()
        expect(dialog.locator("#leave-text")).to_contain_text(expected_words)
        expect(dialog.locator("#leave-text")).to_contain_text("ends your")
        dialog.locator("#leave-confirm").click()
        expect(dialog).to_be_hidden()


# --- the database's side --------------------------------------------------------------------------


def operations(conversation: Conversation) -> list[Operation]:
    return list(Operation.objects.filter(conversation=conversation).order_by("started_at"))


def focusing_operation(conversation: Conversation) -> Operation | None:
    return Operation.objects.filter(conversation=conversation, state=OperationState.RUNNING).first()


def settled(operation: Operation) -> Operation | None:
    operation.refresh_from_db()
    return operation if operation.state != OperationState.RUNNING else None


def interact_instance(conversation: Conversation) -> AppInstance | None:
    return AppInstance.objects.filter(conversation=conversation, is_system=True).first()


def assert_ended_once(operation: Operation, *, state: str, reason: str | None) -> None:
    """One terminal state, one result in the outbox, one settlement event; everything closed."""
    operation.refresh_from_db()
    assert operation.state == state
    assert operation.interruption_reason == reason
    assert OutboxEntry.objects.filter(operation=operation).count() == 1
    assert (
        OutboxEntry.objects.filter(conversation_id=operation.conversation_id).count()
        == Operation.objects.filter(conversation_id=operation.conversation_id)
        .exclude(state=OperationState.RUNNING)
        .count()
    )
    settlements = LifecycleEvent.objects.filter(
        operation_id=operation.id, kind__in=("operation.completed", "operation.interrupted")
    )
    assert [e.kind for e in settlements] == [f"operation.{state}"]
    instance = AppInstance.objects.get(pk=operation.instance_id)
    assert instance.lifecycle_state == "closed" and instance.closed_at is not None
    assert AppSession.objects.get(pk=operation.app_session_id).state == "ended"


def agent_said(conversation: Conversation, pattern: str) -> Message | None:
    for message in Message.objects.filter(conversation=conversation, author_kind="agent").order_by("-created_at"):
        if re.search(pattern, message.text):
            return message
    return None


def pending_interactions(conversation: Conversation, **filters: Any) -> list[Interaction]:
    return list(Interaction.objects.filter(conversation=conversation, status=InteractionStatus.PENDING, **filters))


def start_focus(
    ws: WorkspacePage, server: Any, conversation: Conversation, text: str = "start a 1 minute reading focus"
):
    """Ask the reference Agent for a reading focus in the IM; wait until Pomodoro shows it."""
    ws.say(text)
    operation = server.wait(lambda: focusing_operation(conversation), "the focus to start")
    ws.expect_app_in_front("pomodoro")
    ws.expect_countdown(str(operation.instance_id), activity="reading")
    return operation
