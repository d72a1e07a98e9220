"""``/ws/workspace/``: the Web Reference Host's connection, for a logged-in user only.

Scoped to the user's own conversations. In: the person's messages and answers, and host
lifecycle events (``visibility`` is dim/lock and never an exit; ``surface.reloaded`` neither;
``workspace.close`` is the Desktop Host's window closing: every open MiniApp closes).
Out: every conversation event as a hint, and on ``snapshot.get`` the whole workspace state, from
which a refreshed or reconnected page rebuilds itself (events may be lost; the snapshot may not).
``ping`` is the page's heartbeat: ``pong`` comes back at once (no database), so a page whose
connection died silently knows it within seconds. Every client frame may carry a ``request_id``, echoed in its ``ok`` / ``error`` / ``snapshot`` -
also in the ``error`` for a frame refused as a whole, if it was a JSON object with a valid one.

The session is checked again before each frame and each event, not only at connect: once it no
longer logs the user in (logged out in another tab, expired, password changed, user deactivated)
the page gets ``error unauthorized`` and the connection is closed with 4401.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import structlog
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone

from interact import workspace_actions
from runtime import metrics
from runtime.after_commit import answer_first
from runtime.db_threads import run_db
from runtime.errors import Rejection
from runtime.internals.channels import NoConnectionHopPerMessage
from runtime.manifests import StrictValidator
from runtime.projections import RESYNC_GROUP, conversation_group
from runtime.wire import (
    ID_SCHEMA,
    FrameError,
    compile_schemas,
    encode,
    frame_schema,
    has_unstorable_string,
    parse_frame,
)

logger = structlog.get_logger("lineup.workspace")

CLOSE_UNAUTHENTICATED = 4401
CLOSE_TOO_MANY = 4429
_REQUEST = {"request_id": {"type": "string", "maxLength": 64}}
_CONVERSATION = {"conversation_id": ID_SCHEMA}
_INSTANCE = {"conversation_id": ID_SCHEMA, "instance_id": ID_SCHEMA}

WORKSPACE_FRAMES = compile_schemas(
    {
        "snapshot.get": frame_schema({}, {**_REQUEST, **_CONVERSATION}),
        # The page's heartbeat: answered ``pong`` at once, without the database (decision 0047).
        "ping": frame_schema({}, _REQUEST),
        "message.send": frame_schema(
            {**_CONVERSATION, "text": {"type": "string", "maxLength": 4000}},
            {
                **_REQUEST,
                # The page's id for the message (a resend answers the stored one) and its language.
                "client_message_id": {"type": "string", "minLength": 8, "maxLength": 64},
                "language": {"type": "string", "maxLength": 16},
            },
        ),
        "interaction.answer": frame_schema({"interaction_id": ID_SCHEMA, "value": {}}, _REQUEST),
        "interaction.dismiss": frame_schema({"interaction_id": ID_SCHEMA}, _REQUEST),
        "visibility": frame_schema({**_CONVERSATION, "visible": {"type": "boolean"}}, _REQUEST),
        "surface.reloaded": frame_schema(_INSTANCE, _REQUEST),
        # A Surface script threw (the SDK's report, relayed by the page): logged, never an exit.
        "surface.failed": frame_schema({**_INSTANCE, "message": {"type": "string", "maxLength": 300}}, _REQUEST),
        "app.switch": frame_schema(_INSTANCE, _REQUEST),
        "app.open": frame_schema({**_CONVERSATION, "app_id": {"type": "string", "maxLength": 64}}, _REQUEST),
        "app.close": frame_schema(_INSTANCE, _REQUEST),
        "workspace.close": frame_schema(_CONVERSATION, _REQUEST),
        "return_to_interact": frame_schema(_CONVERSATION, _REQUEST),
        "state.save": frame_schema({**_INSTANCE, "state": {}, "revision": {"type": "integer", "minimum": 0}}, _REQUEST),
        "capability.request": frame_schema(
            {**_INSTANCE, "name": {"type": "string", "minLength": 1, "maxLength": 128}},
            {**_REQUEST, "args": {"type": "object"}},
        ),
    }
)


_REQUEST_ID = StrictValidator(_REQUEST["request_id"])


def recovered_request_id(error: FrameError) -> dict[str, str]:
    """``{"request_id": ...}`` of a refused frame that decoded to an object with a valid one, else ``{}``.

    The page waits for the reply to each request_id; without it a refused frame's request hangs.
    A duplicate-key, NaN, oversized or non-JSON frame has no trustworthy request_id: none is echoed.
    """
    request_id = error.body.get("request_id") if error.body is not None else None
    if isinstance(request_id, str) and _REQUEST_ID.is_valid(request_id) and not has_unstorable_string(request_id):
        return {"request_id": request_id}
    return {}


def _if_session_current(session_key: str, user_id: int, call: Callable[..., Any], /, *args: Any, **kwargs: Any):
    """``(True, call(...))`` while the session still logs the user in, else ``(False, None)`` uncalled."""
    if not workspace_actions.session_is_current(session_key, user_id):
        return False, None
    return True, call(*args, **kwargs)


class WorkspaceConsumer(NoConnectionHopPerMessage, AsyncWebsocketConsumer):
    conversation_ids: list[str]

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.conversation_ids = []
        self.ended = False
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED, reason="not signed in")
            return
        self.session_key = self.scope["session"].session_key
        # Fair share: the door (lineup.doors.websocket, in front of this consumer) counts a user's
        # connections in this process; one person's tabs or scripts can not hold all of them.
        door = self.scope.get("lineup.door")
        cap = settings.LINEUP_WORKSPACE_CONNECTIONS_PER_USER
        if door is not None:
            door.context["user_id"] = self.user.id
        if door is not None and not door.claim("workspace-user", str(self.user.id), cap):
            await self.accept()
            self.ended = True
            await self._send("error", code="too_many_connections", detail=f"at most {cap} open pages per person")
            logger.info("workspace.too_many_connections", user_id=self.user.id)
            await self.close(code=CLOSE_TOO_MANY, reason="too many connections")
            return
        conversations = await run_db(workspace_actions.conversations_for, self.user)
        self.conversation_ids = [str(c.id) for c in conversations]
        for conversation_id in self.conversation_ids:
            await self.channel_layer.group_add(conversation_group(conversation_id), self.channel_name)
        await self.channel_layer.group_add(RESYNC_GROUP, self.channel_name)
        self.resyncs = True
        await self.accept()
        self.counted = True
        metrics.workspace_page_connected(1)
        await self._send("hello", user=self.user.get_username(), conversations=self.conversation_ids)
        logger.info("workspace.connected", user_id=self.user.id, conversations=len(self.conversation_ids))

    async def disconnect(self, code: int) -> None:
        if getattr(self, "counted", False):
            self.counted = False
            metrics.workspace_page_connected(-1)
        for conversation_id in self.conversation_ids:
            await self.channel_layer.group_discard(conversation_group(conversation_id), self.channel_name)
        if getattr(self, "resyncs", False):
            await self.channel_layer.group_discard(RESYNC_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.ended:
            return
        try:
            frame = parse_frame(text_data, validators=WORKSPACE_FRAMES)
        except FrameError as error:
            if await self._session_ended():  # a refusal is an answer too: only to a live session
                return
            await self._send("error", code=error.code, detail=error.detail, **recovered_request_id(error))
            logger.info("workspace.frame_rejected", user_id=self.user.id, code=error.code, detail=error.detail)
            return
        request_id = frame.body.pop("request_id", None)
        echo = {"request_id": request_id} if request_id is not None else {}
        if frame.type == "ping":
            # Only "this connection is alive": it tells nothing about the user, so no session
            # check (the next real frame or event does it); the door in front bounds the rate.
            await self._send("pong", **echo)
            return
        try:
            # Hints and eta publishes of what this frame decided leave after its answer.
            async with answer_first():
                await self._answer(frame.type, frame.body, echo)
        except Exception:  # a bug must not take the page's connection down
            logger.exception("workspace.frame_failed", user_id=self.user.id, frame=frame.type)
            await self._send("error", code="internal_error", detail="the server failed to handle this frame", **echo)

    async def _answer(self, frame_type: str, body: dict[str, Any], echo: dict[str, Any]) -> None:
        try:
            # The session re-check and the frame's service in one database-thread call (decision 0032).
            current, reply = await run_db(
                _if_session_current,
                self.session_key,
                self.user.id,
                workspace_actions.handle,
                self.user,
                frame_type,
                body,
                now=timezone.now(),
            )
        except Rejection as rejection:
            await self._send("error", code=str(rejection.code), detail=rejection.detail, frame=frame_type, **echo)
            logger.info("workspace.frame_rejected", user_id=self.user.id, frame=frame_type, code=str(rejection.code))
            return
        if not current:
            await self._end_session()
            return
        if frame_type == "snapshot.get":
            await self._send("snapshot", **echo, snapshot=reply)
        else:
            await self._send("ok", frame=frame_type, **echo, **(reply or {}))

    async def conversation_events(self, message: dict[str, Any]) -> None:
        """The events one transaction made: one session check, then a frame per event, in order."""
        if await self._session_ended():
            return
        for event in message["events"]:
            await self._send("event", kind=event["kind"], payload=event["payload"])

    async def conversation_resync(self, message: dict[str, Any]) -> None:
        """A batch settlement told many conversations with one message (runtime.projections): the
        page hears ``conversation.resync`` for each of its own, and takes a fresh snapshot."""
        mine = [c for c in message.get("conversation_ids") or () if c in self.conversation_ids]
        if not mine or await self._session_ended():
            return
        for conversation_id in mine:
            await self._send("event", kind="conversation.resync", payload={"conversation_id": conversation_id})

    async def conversation_event(self, event: dict[str, Any]) -> None:
        # One event per message: what a server of the previous release sends during a rolling upgrade.
        await self.conversation_events({"events": [event]})

    async def _session_ended(self) -> bool:
        """Close the connection if its session no longer logs the user in (it was checked at connect only)."""
        if self.ended:
            return True
        if await run_db(workspace_actions.session_is_current, self.session_key, self.user.id):
            return False
        await self._end_session()
        return True

    async def _end_session(self) -> None:
        self.ended = True
        await self._send("error", code="unauthorized", detail="the session has ended; log in again")
        logger.info("workspace.session_ended", user_id=self.user.id)
        await self.close(code=CLOSE_UNAUTHENTICATED, reason="the session has ended")

    async def _send(self, frame_type: str, **body: Any) -> None:
        await self.send(text_data=encode({"type": frame_type, **body}))
