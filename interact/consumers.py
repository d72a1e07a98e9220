"""``/ws/workspace/``: the Web Reference Host's connection, for a logged-in user only.

Scoped to the user's own conversations. In: the person's messages and answers, and host
lifecycle events (``visibility`` is dim/lock and never an exit; ``surface.reloaded`` neither).
Out: every conversation event as a hint, and on ``snapshot.get`` the whole workspace state, from
which a refreshed or reconnected page rebuilds itself (events may be lost; the snapshot may not).
Every client frame may carry a ``request_id``, echoed in its ``ok`` / ``error`` / ``snapshot``.
"""

from __future__ import annotations

from typing import Any

import structlog
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone

from interact import workspace_actions
from runtime.agent_protocol.delivery import encode
from runtime.errors import Rejection
from runtime.projections import conversation_group
from runtime.wire import ID_SCHEMA, FrameError, compile_schemas, frame_schema, parse_frame

logger = structlog.get_logger("lineup.workspace")

CLOSE_UNAUTHENTICATED = 4401
_REQUEST = {"request_id": {"type": "string", "maxLength": 64}}
_CONVERSATION = {"conversation_id": ID_SCHEMA}
_INSTANCE = {"conversation_id": ID_SCHEMA, "instance_id": ID_SCHEMA}

WORKSPACE_FRAMES = compile_schemas(
    {
        "snapshot.get": frame_schema({}, {**_REQUEST, **_CONVERSATION}),
        "message.send": frame_schema({**_CONVERSATION, "text": {"type": "string", "maxLength": 4000}}, _REQUEST),
        "interaction.answer": frame_schema({"interaction_id": ID_SCHEMA, "value": {}}, _REQUEST),
        "interaction.dismiss": frame_schema({"interaction_id": ID_SCHEMA}, _REQUEST),
        "visibility": frame_schema({**_CONVERSATION, "visible": {"type": "boolean"}}, _REQUEST),
        "surface.reloaded": frame_schema(_INSTANCE, _REQUEST),
        "app.switch": frame_schema(_INSTANCE, _REQUEST),
        "app.open": frame_schema({**_CONVERSATION, "app_id": {"type": "string", "maxLength": 64}}, _REQUEST),
        "app.close": frame_schema(_INSTANCE, _REQUEST),
        "return_to_interact": frame_schema(_CONVERSATION, _REQUEST),
        "state.save": frame_schema({**_INSTANCE, "state": {}, "revision": {"type": "integer", "minimum": 0}}, _REQUEST),
        "capability.request": frame_schema(
            {**_INSTANCE, "name": {"type": "string", "minLength": 1, "maxLength": 128}},
            {**_REQUEST, "args": {"type": "object"}},
        ),
    }
)


class WorkspaceConsumer(AsyncWebsocketConsumer):
    conversation_ids: list[str]

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.conversation_ids = []
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        conversations = await database_sync_to_async(workspace_actions.conversations_for)(self.user)
        self.conversation_ids = [str(c.id) for c in conversations]
        for conversation_id in self.conversation_ids:
            await self.channel_layer.group_add(conversation_group(conversation_id), self.channel_name)
        await self.accept()
        await self._send("hello", user=self.user.get_username(), conversations=self.conversation_ids)
        logger.info("workspace.connected", user_id=self.user.id, conversations=len(self.conversation_ids))

    async def disconnect(self, code: int) -> None:
        for conversation_id in self.conversation_ids:
            await self.channel_layer.group_discard(conversation_group(conversation_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            frame = parse_frame(text_data, validators=WORKSPACE_FRAMES)
        except FrameError as error:
            await self._send("error", code=error.code, detail=error.detail)
            logger.info("workspace.frame_rejected", user_id=self.user.id, code=error.code, detail=error.detail)
            return
        request_id = frame.body.pop("request_id", None)
        echo = {"request_id": request_id} if request_id is not None else {}
        try:
            reply = await database_sync_to_async(workspace_actions.handle)(
                self.user, frame.type, frame.body, now=timezone.now()
            )
        except Rejection as rejection:
            await self._send("error", code=str(rejection.code), detail=rejection.detail, frame=frame.type, **echo)
            logger.info("workspace.frame_rejected", user_id=self.user.id, frame=frame.type, code=str(rejection.code))
            return
        except Exception:  # a bug must not take the page's connection down
            logger.exception("workspace.frame_failed", user_id=self.user.id, frame=frame.type)
            await self._send("error", code="internal_error", detail="the server failed to handle this frame", **echo)
            return
        if frame.type == "snapshot.get":
            await self._send("snapshot", **echo, snapshot=reply)
        else:
            await self._send("ok", frame=frame.type, **echo, **(reply or {}))

    async def conversation_event(self, event: dict[str, Any]) -> None:
        await self._send("event", kind=event["kind"], payload=event["payload"])

    async def _send(self, frame_type: str, **body: Any) -> None:
        await self.send(text_data=encode({"type": frame_type, **body}))
