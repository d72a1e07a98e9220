"""What is NOT leaving a focus (SPEC R-4.2.2, acceptance 3): dimming or locking the screen (the
page hidden), reloading the Surface, refreshing the whole page. The focus keeps running on its
``ends_at``; the page rebuilds from the workspace snapshot and the Surface from its own.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from runtime.models import AppInstance, InstanceSnapshot, LifecycleEvent
from tests.browser.workspace_page import WorkspacePage, focusing_operation, interact_instance, start_focus

HIDE = """() => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW = """() => {
  delete document.visibilityState;
  delete document.hidden;
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def seconds_left(text: str) -> int:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def lifecycle_state(instance_id) -> str:
    return AppInstance.objects.get(pk=instance_id).lifecycle_state


def exits(operation) -> list[str]:
    return list(
        LifecycleEvent.objects.filter(
            conversation_id=operation.conversation_id,
            kind__in=(
                "operation.interrupted",
                "operation.completed",
                "lifecycle.return_to_interact",
                "lifecycle.switch_app",
                "lifecycle.close",
            ),
        ).values_list("kind", flat=True)
    )


@pytest.fixture
def ws(workspace, server) -> WorkspacePage:
    return WorkspacePage(workspace, server.url)


@pytest.mark.spec("R-4.2.2", "R-4.4.5", "R-2.2.6", "R-4.1.5", "R-2.3.4", "R-3.4", "R-4.1.3")
def test_dim_lock_surface_reload_and_page_refresh_do_not_end_the_focus(ws, server, conversation):
    """Hidden -> the app is suspended, visible -> foreground again; a Surface reload (from the host
    and from inside) is recorded and redraws from the saved display snapshot; a page refresh
    rebuilds the same workspace. The focus is still the same focusing operation afterwards."""
    operation = start_focus(ws, server, conversation, "start a 2 minute reading focus")
    instance_id = str(operation.instance_id)
    server.wait(lambda: InstanceSnapshot.objects.get(instance_id=instance_id).revision == 1, "the display snapshot")
    display = InstanceSnapshot.objects.get(instance_id=instance_id).state
    assert display == {
        "operation_id": str(operation.id),
        "activity": "reading",
        "started_at": display["started_at"],
        "ends_at": display["ends_at"],
        "display_state": "focusing",
    }
    assert display["ends_at"].startswith(operation.ends_at.strftime("%Y-%m-%dT%H:%M:%S"))

    # Dim / lock: the page is hidden. Suspended, never an exit.
    ws.page.evaluate(HIDE)
    server.wait(lambda: lifecycle_state(instance_id) == "suspended", "the app to be suspended")
    ws.expect_chip_state(instance_id, "suspended")
    assert focusing_operation(conversation) == operation
    ws.page.evaluate(SHOW)
    server.wait(lambda: lifecycle_state(instance_id) == "foreground", "the app to be in front again")
    ws.expect_chip_state(instance_id, "foreground")
    assert list(LifecycleEvent.objects.filter(kind="lifecycle.visibility").values_list("data__visible", flat=True)) == [
        False,
        True,
    ]

    # The Surface reloads: from the host's Reload button, then by itself.
    before = seconds_left(ws.expect_countdown(instance_id, activity="reading"))
    ws.page.get_by_role("button", name="Reload").click()
    server.wait(lambda: LifecycleEvent.objects.filter(kind="surface.reloaded").count() == 1, "the first reload")
    ws.expect_countdown(instance_id, activity="reading")
    ws.surface(instance_id).evaluate("() => location.reload()")
    server.wait(lambda: LifecycleEvent.objects.filter(kind="surface.reloaded").count() == 2, "the second reload")
    ws.expect_countdown(instance_id, activity="reading")
    expect(ws.page.frame_locator(f"iframe[data-instance-id='{instance_id}']").locator("#focus")).to_have_attribute(
        "data-operation-id", str(operation.id)
    )

    # The whole page refreshes: it rebuilds from the workspace snapshot.
    ws.reload()
    ws.expect_app_in_front("pomodoro")
    after = seconds_left(ws.expect_countdown(instance_id, activity="reading"))
    assert after <= before, "the countdown comes from ends_at; it never starts over"
    ws.expect_chip_state(instance_id, "foreground")
    ws.expect_chip_state(str(interact_instance(conversation).id), "background")

    assert focusing_operation(conversation) == operation
    assert exits(operation) == []
    # Restored from the snapshot, not rewritten: the display was saved once.
    assert InstanceSnapshot.objects.get(instance_id=instance_id).revision == 1
