"""What each ``/ws/workspace/`` frame does: check the user's access, call one service, reply.

Runs in a worker thread for ``interact.consumers.WorkspaceConsumer``; returns plain data.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib import auth
from django.http import HttpRequest

from interact.selectors import access_user_conversation, user_conversations, workspace_snapshot
from interact.services.interactions import answer_interaction, dismiss_interaction
from interact.services.messages import post_human_message
from runtime.errors import Rejection, RejectionCode
from runtime.models import Conversation
from runtime.services import lifecycle
from runtime.services.capabilities import request_capability
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.snapshots import save_snapshot


def session_is_current(session_key: str | None, user_id: int) -> bool:
    """Whether the session still logs in this user, read afresh from the session store.

    The socket's user was resolved once, at connect; since then the session may have been logged
    out (in another tab), expired or flushed, the password changed or the user deactivated.
    Django's own ``get_user`` decides, as it would for the next HTTP request.
    """
    if not session_key:
        return False
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    return auth.get_user(request).pk == user_id


def conversations_for(user: Any) -> list[Conversation]:
    conversation_get_or_create_default(user=user)
    return user_conversations(user.id)


def _own_ids(user: Any) -> list[Any]:
    return [c.id for c in user_conversations(user.id)]


def _snapshot(user: Any, body: dict[str, Any], now: datetime) -> dict[str, Any]:
    return workspace_snapshot(user=user, conversation_id=body.get("conversation_id"), now=now)


def _message(user: Any, body: dict[str, Any], now: datetime) -> dict[str, Any]:
    conversation = access_user_conversation(user, body["conversation_id"])
    message = post_human_message(
        conversation=conversation,
        user_id=user.id,
        text=body["text"],
        client_message_id=body.get("client_message_id"),
        language=body.get("language"),
        now=now,
    )
    reply: dict[str, Any] = {"message_id": str(message.id), "replayed": message.replayed}  # type: ignore[attr-defined]
    if message.client_message_id:
        reply["client_message_id"] = message.client_message_id
    return reply


def _answer(user: Any, body: dict[str, Any], now: datetime) -> dict[str, Any]:
    interaction = answer_interaction(
        conversation_ids=_own_ids(user), interaction_pk=body["interaction_id"], value=body["value"], now=now
    )
    return {"interaction_id": str(interaction.id), "status": interaction.status}


def _dismiss(user: Any, body: dict[str, Any], now: datetime) -> dict[str, Any]:
    interaction = dismiss_interaction(conversation_ids=_own_ids(user), interaction_pk=body["interaction_id"], now=now)
    return {"interaction_id": str(interaction.id), "status": interaction.status}


def _conversation_id(user: Any, body: dict[str, Any]) -> Any:
    conversation_id = access_user_conversation(user, body["conversation_id"]).id
    if "instance_id" in body:
        try:
            uuid.UUID(body["instance_id"])
        except ValueError:
            raise Rejection(RejectionCode.UNKNOWN_INSTANCE, "no such app instance in this conversation") from None
    return conversation_id


def _visibility(user: Any, body: dict[str, Any], now: datetime) -> None:
    lifecycle.set_visibility(conversation_id=_conversation_id(user, body), visible=body["visible"], now=now)


def _surface_reloaded(user: Any, body: dict[str, Any], now: datetime) -> None:
    lifecycle.report_surface_reloaded(
        conversation_id=_conversation_id(user, body), instance_id=body["instance_id"], now=now
    )


def _surface_failed(user: Any, body: dict[str, Any], now: datetime) -> None:
    lifecycle.report_surface_failed(
        conversation_id=_conversation_id(user, body), instance_id=body["instance_id"], message=body["message"], now=now
    )


def _switch(user: Any, body: dict[str, Any], now: datetime) -> None:
    lifecycle.switch_app(conversation_id=_conversation_id(user, body), instance_id=body["instance_id"], now=now)


def _open(user: Any, body: dict[str, Any], now: datetime) -> dict[str, Any]:
    instance = lifecycle.open_app(conversation_id=_conversation_id(user, body), app_id=body["app_id"], now=now)
    return {"instance_id": str(instance.id)}


def _close(user: Any, body: dict[str, Any], now: datetime) -> None:
    lifecycle.close_instance(conversation_id=_conversation_id(user, body), instance_id=body["instance_id"], now=now)


def _close_workspace(user: Any, body: dict[str, Any], now: datetime) -> dict[str, Any]:
    # The Desktop Host's window closes (lineup/desktop/close_apps.js): all open MiniApps, one transaction.
    return {"closed": lifecycle.close_workspace(conversation_id=_conversation_id(user, body), now=now)}


def _return(user: Any, body: dict[str, Any], now: datetime) -> None:
    lifecycle.return_to_interact(conversation_id=_conversation_id(user, body), now=now)


def _save_state(user: Any, body: dict[str, Any], now: datetime) -> dict[str, Any]:
    saved = save_snapshot(
        conversation_id=_conversation_id(user, body),
        instance_id=body["instance_id"],
        state=body["state"],
        expected_revision=body["revision"],
        now=now,
    )
    return {"instance_id": str(saved.instance_id), "revision": saved.revision}


def _capability(user: Any, body: dict[str, Any], now: datetime) -> dict[str, Any]:
    # A Surface's requestCapability, relayed by the host for the instance it belongs to. ``args``
    # are part of the SDK call, but no capability is provided yet, so the Gateway decides by name.
    decision = request_capability(
        conversation_id=_conversation_id(user, body), instance_id=body["instance_id"], name=body["name"], now=now
    )
    return {"name": decision.name, "granted": decision.granted, "reason": decision.reason}


HANDLERS: dict[str, Callable[[Any, dict[str, Any], datetime], dict[str, Any] | None]] = {
    "snapshot.get": _snapshot,
    "message.send": _message,
    "interaction.answer": _answer,
    "interaction.dismiss": _dismiss,
    "visibility": _visibility,
    "surface.reloaded": _surface_reloaded,
    "surface.failed": _surface_failed,
    "app.switch": _switch,
    "app.open": _open,
    "app.close": _close,
    "workspace.close": _close_workspace,
    "return_to_interact": _return,
    "state.save": _save_state,
    "capability.request": _capability,
}


def handle(user: Any, frame_type: str, body: dict[str, Any], *, now: datetime) -> dict[str, Any] | None:
    return HANDLERS[frame_type](user, body, now)
