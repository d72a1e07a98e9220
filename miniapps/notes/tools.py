"""Scratch notes' tools: the Agent adds to the person's notes and reads them back.

The notes are the state of a Notes instance (``{"text"}``), the same one the Surface edits: no
operation and no deadline (``runtime.api.save_instance_state``). ``notes.append`` adds its text
as a new line to the conversation's open Notes instance, opening one behind what is in front if
there is none; the manifest's quota holds (2 000 characters, 4 096 bytes of state) and a text
that does not fit is refused ``notes_full``, nothing written. ``notes.read`` answers with the text
of the open notes the person used last, or else of the notes closed last (kept, read-only).
"""

from __future__ import annotations

from typing import Any

from runtime.api import (
    InstanceView,
    Receipt,
    Refusal,
    ToolRequest,
    read_instance_state,
    save_instance_state,
    state_size,
)

APP_ID = "notes"
APPEND_TOOL = "notes.append"
READ_TOOL = "notes.read"
MAX_CHARACTERS = 2000  # the manifest's state_schema: text maxLength
FULL = "notes_full"


def append(request: ToolRequest) -> Receipt:
    addition = request.arguments["text"].strip("\n")

    def change(view: InstanceView | None) -> dict[str, Any]:
        before = (view.state or {}).get("text", "") if view is not None else ""
        text = f"{before}\n{addition}" if before else addition
        max_bytes = view.max_bytes if view is not None else None
        characters, size = len(text), state_size({"text": text})
        if characters > MAX_CHARACTERS or (max_bytes is not None and size > max_bytes):
            raise Refusal(
                FULL,
                f"the notes are full: {len(before)} of {MAX_CHARACTERS} characters used, "
                f"{view.size_bytes if view else 0} of {max_bytes or '-'} bytes; nothing was added",
            )
        return {"text": text}

    return save_instance_state(request, change, open_if_none=True, answer=_appended)


def _appended(view: InstanceView | None) -> dict[str, Any]:
    assert view is not None and view.state is not None
    return {
        "status": "appended",
        "instance_id": str(view.instance_id),
        "revision": view.revision,
        "characters": len(view.state["text"]),
        "bytes_used": view.size_bytes,
        "max_bytes": view.max_bytes,
    }


def read(request: ToolRequest) -> Receipt:
    return read_instance_state(request, answer=_read)


def _read(view: InstanceView | None) -> dict[str, Any]:
    if view is None:
        return {"status": "no_notes", "text": ""}
    return {
        "status": "read",
        "instance_id": str(view.instance_id),
        "open": view.is_open,
        "text": (view.state or {}).get("text", ""),
    }
