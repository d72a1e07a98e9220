"""``/ws/agent/``: the Agent's WebSocket, a thin adapter over the Runtime and Interact services.

Each frame is parsed (runtime.wire), checked against the Agent's bound conversations, handed to
a service in a worker thread, and answered. What the Agent must not miss is read from the
database, never trusted to the channel layer: final results come from the outbox (sent on
``welcome``, on a settlement hint, and again every ``LINEUP_OUTBOX_REDELIVERY_SECONDS`` until
acked), person messages and interaction resolutions from their rows. Layer messages are only
hints that something may be waiting. The same holds for the credential: a revoked token or a
deactivated user is re-read from the database before every frame, hint and redelivery round, and
the ``agent.revoked`` / ``agent.deactivated`` hints only make the close prompt.

A welcomed connection is also a row (``runtime.AgentConnection``), refreshed by a heartbeat and
deleted at close: the Agents page counts live connections from the database, whichever process
holds them (docs/decisions/0017-agents-page-and-live-connections.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from typing import Any

import structlog
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone

from lineup.client_address import scope_client_ip
from lineup.doors import limits, strangers
from lineup.doors.websocket import CLOSE_TOO_MANY, CLOSE_UNAUTHENTICATED, DOOR
from lineup.gateways.agent_socket import delivery
from lineup.gateways.agent_socket.frames import PROTOCOL, parse_agent_frame
from runtime import crashpoints, metrics, tracing
from runtime.after_commit import answer_first
from runtime.db_threads import run_db
from runtime.errors import Rejection
from runtime.internals.channels import ChannelOnDemand, NoConnectionHopAtDisconnect, NoConnectionHopPerMessage
from runtime.projections import RESYNC_GROUP, agent_conversation_group, agent_group, agent_results_group
from runtime.services.agents import (
    agent_connection_closed,
    agent_connection_opened,
    agent_connection_seen,
    authenticate_agent,
    token_digest,
    token_refusal,
)
from runtime.tool_calls import Accepted, Receipt
from runtime.tool_router import Caller, route_tool_call
from runtime.wire import FrameError, encode, request_ids

logger = structlog.get_logger("lineup.agent")

REFUSALS = {  # token_refusal() -> the detail of the unauthorized error that ends the connection
    "revoked": "the token of this connection was revoked",
    "deactivated": "the user of this Agent was deactivated",
}


# The request ids a frame may carry; an error answering it echoes them (docs/agent-protocol.md § Errors).
CORRELATION_FIELDS = ("source_tool_call_id", "interaction_id", "outbox_id", "message_id", "conversation_id")


def correlation_ids(body: dict[str, Any]) -> dict[str, str]:
    return request_ids(body, CORRELATION_FIELDS)


class _Ended(Exception):
    """The frame's credential re-read found it gone: the connection was ended instead of the frame handled."""


class AgentConsumer(ChannelOnDemand, NoConnectionHopAtDisconnect, NoConnectionHopPerMessage, AsyncWebsocketConsumer):
    """One connection. Until its hello is welcomed it costs no Redis (``ChannelOnDemand``: its
    channel is listened to from the first ``group_add``) and no thread hop at its disconnect, so
    a stranger refused at the hello (lineup.doors.strangers) costs the server's loop little."""

    agent = None
    caller: Caller | None = None
    conversation_ids: list[str]
    ended = False  # told unauthorized and closing: nothing more is handled or delivered
    stranger = False  # refused at the hello (an unknown token, or over the strangers' budgets)
    credential_read_at = float("-inf")  # time.monotonic() of the last read that found the token valid

    async def connect(self) -> None:
        self.row_id = uuid.uuid4()  # its runtime.AgentConnection row, once welcomed
        self.connection_id = self.row_id.hex[:12]
        self.conversation_ids = []
        self.background: list[asyncio.Task] = []
        if (door := self.scope.get(DOOR)) is not None:
            door.context.update(connection_id=self.connection_id, agent_id=None)
        await self.accept()
        self.background.append(asyncio.ensure_future(self._close_without_hello()))

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            # A consumer can end without websocket.disconnect (an exception from the channel
            # layer's receive, e.g. a Redis timeout): its redelivery loop must not outlive it,
            # or it keeps taking person messages and resolutions for a socket that is gone.
            for task in getattr(self, "background", []):
                task.cancel()

    async def disconnect(self, code: int) -> None:
        for task in self.background:
            task.cancel()
        for conversation_id in self.conversation_ids:
            await self.channel_layer.group_discard(agent_conversation_group(conversation_id), self.channel_name)
        if self.agent is not None:
            await self.channel_layer.group_discard(agent_group(self.agent.id), self.channel_name)
            await self.channel_layer.group_discard(agent_results_group(self.agent.id), self.channel_name)
            await self.channel_layer.group_discard(RESYNC_GROUP, self.channel_name)
        if self.agent is not None:
            try:
                await run_db(
                    agent_connection_closed, connection_id=self.row_id, agent_id=self.agent.id, now=timezone.now()
                )
            except Exception:  # the row stops counting when its heartbeat is missed (decision 0017)
                logger.exception("agent.connection_row_not_deleted", connection_id=self.connection_id)
        if self.stranger:
            logger.debug("agent.disconnected", connection_id=self.connection_id, agent_id=None, close_code=code)
        else:
            self._log("agent.disconnected", close_code=code)

    # --- frames in ------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.ended:  # told unauthorized and closing: not even a malformed frame is answered
            return
        if self.agent is None:
            # Limits before trust: the first frame is a valid hello, or the connection ends (4401)
            # after its answer; an unknown client gets one frame's work, not a conversation.
            if await self._first_frame(text_data) and self.agent is None and not self.ended:
                self.ended = True
                await self.close(code=CLOSE_UNAUTHENTICATED, reason="the first frame must be a valid hello")
            return
        try:
            frame = parse_agent_frame(text_data)
        except FrameError as error:
            with contextlib.suppress(_Ended):
                await self._refuse_frame(error)
            return
        handler = getattr(self, "on_" + frame.type.replace(".", "_"))
        try:
            # Hints and eta publishes of what this frame decided leave after its answer.
            async with answer_first():
                await handler(frame.body)
        except _Ended:  # its credential was gone: told unauthorized and closed, the frame not handled
            return
        except Rejection as rejection:
            await self._error(rejection.code, rejection.detail, frame=frame.type, **correlation_ids(frame.body))
        except Exception:  # a bug must not take the connection down; the frame changed nothing it reports
            logger.exception("agent.frame_failed", connection_id=self.connection_id, frame=frame.type)
            await self._error(
                "internal_error",
                "the server failed to handle this frame; it is logged",
                frame=frame.type,
                **correlation_ids(frame.body),
            )

    async def _first_frame(self, text_data: str | None) -> bool:
        """Handle a frame sent before welcome; False when only the server failed (the hello may be sent again)."""
        try:
            frame = parse_agent_frame(text_data)
        except FrameError as error:
            await self._refuse_frame(error)
            return True
        if frame.type != "hello":
            await self._error("not_authenticated", "send hello with your token first", **correlation_ids(frame.body))
            return True
        try:
            await self.on_hello(frame.body)
        except Exception:  # e.g. Redis refusing the group writes: the client's hello was fine
            logger.exception("agent.frame_failed", connection_id=self.connection_id, frame=frame.type)
            if (door := self.scope.get(DOOR)) is not None:
                door.release()  # the connection counts again when its next hello succeeds
            await self._error("internal_error", "the server failed to handle this frame; it is logged")
            return False
        return True

    async def on_hello(self, body: dict[str, Any]) -> None:
        if self.agent is not None:
            await self._error("already_authenticated", "hello was already accepted on this connection")
            return
        if body["protocol"] != PROTOCOL:
            await self._error("unsupported_protocol", f"this server speaks {PROTOCOL}")
            return
        # Strangers (lineup.doors.strangers): a token known to be no Agent's, or one look-up more
        # than the budgets allow, is refused without the database; every refusal is answered late.
        address = scope_client_ip(self.scope)
        stranger = strangers.check(body["token"], address)
        agent = None if stranger else await run_db(authenticate_agent, body["token"], now=timezone.now())
        if agent is None:
            self.ended = self.stranger = True
            metrics.count_rate_limit_refusal("agent_socket_unauthenticated")
            if stranger is None:
                self._log("agent.unauthorized")  # only a look-up that reached the database
            with strangers.refusal_wait(address) as delay:
                await asyncio.sleep(delay)
            # Answered without a log line each (counted above): a flood of strangers is not a
            # flood of log lines, and their disconnects are logged at DEBUG.
            if stranger == strangers.BUSY:
                await self._send(
                    "error",
                    code="rate_limited",
                    detail="too many attempts with tokens this server does not know; try later",
                )
                await self.close(code=CLOSE_TOO_MANY, reason="too many unknown tokens")
                return
            await self._send("error", code="unauthorized", detail="unknown or revoked token")
            await self.close(code=CLOSE_UNAUTHENTICATED, reason="unknown or revoked token")
            return
        strangers.trust(body["token"])
        door = self.scope.get(DOOR)
        digest = token_digest(body["token"])
        if door is not None and not (
            door.claim("agent-token", digest, settings.LINEUP_AGENT_CONNECTIONS_PER_TOKEN)
            and door.claim("agent-user", str(agent.user_id), settings.LINEUP_AGENT_CONNECTIONS_PER_USER)
        ):
            # Fair share: one token (anyone can make one) can not hold the server's connections.
            self.ended = True
            door.release()
            await self._error(
                "too_many_connections",
                f"at most {settings.LINEUP_AGENT_CONNECTIONS_PER_TOKEN} connections per token and "
                f"{settings.LINEUP_AGENT_CONNECTIONS_PER_USER} per user on this server; close one first",
            )
            self._log("agent.too_many_connections")
            await self.close(code=CLOSE_TOO_MANY, reason="too many connections")
            return
        conversation_ids = await run_db(delivery.agent_conversation_ids, agent)
        self.listen()  # its channel, from before its first group: nothing is sent to it earlier
        for conversation_id in conversation_ids:
            await self.channel_layer.group_add(agent_conversation_group(conversation_id), self.channel_name)
        await self.channel_layer.group_add(agent_group(agent.id), self.channel_name)
        # Only the hints this socket acts on reach it (runtime.projections): its own results here.
        await self.channel_layer.group_add(agent_results_group(agent.id), self.channel_name)
        await self.channel_layer.group_add(RESYNC_GROUP, self.channel_name)
        # Only now is the connection the Agent's: a hello that failed above (Redis refusing the
        # group writes) is answered internal_error and may be sent again, instead of leaving an
        # authenticated connection that was never welcomed and never gets a result.
        self.agent = agent
        self.token_digest = digest
        self.credential_read_at = time.monotonic()
        if door is not None:
            door.authenticated = True
            door.context["agent_id"] = str(agent.id)
        self.conversation_ids = conversation_ids
        self.caller = Caller(
            label=f"agent:{agent.id}", user_id=agent.user_id, conversation_ids=self.conversation_ids, agent_id=agent.id
        )
        structlog.contextvars.bind_contextvars(agent_id=str(agent.id))
        await self._send(
            "welcome",
            agent_id=str(agent.id),
            protocol=PROTOCOL,
            conversations=self.conversation_ids,
            limits=limits.published(),
        )
        self._log("agent.welcomed", conversations=len(self.conversation_ids))
        try:
            await run_db(
                agent_connection_opened,
                connection_id=self.row_id,
                agent_id=agent.id,
                digest=self.token_digest,
                now=timezone.now(),
            )
        except Exception:  # only the Agents page's count misses it; the heartbeat writes it again
            logger.exception("agent.connection_row_not_written", connection_id=self.connection_id)
        self.background.append(asyncio.ensure_future(self._heartbeat_forever()))
        # The loop is started before the first delivery, so that a failure of this one (a database
        # or Redis hiccup) is retried by its next round instead of leaving a welcomed connection
        # that never gets a result. It is a background task: __call__ cancels it with the consumer.
        self.background.append(asyncio.ensure_future(self._redeliver_forever()))
        try:
            await self._deliver(everything=True)
        except Exception:  # logged, not answered: welcome was this hello's answer
            logger.exception("agent.first_delivery_failed", connection_id=self.connection_id, agent_id=str(agent.id))

    async def on_inventory_get(self, body: dict[str, Any]) -> None:
        inventory = await self._checked(
            delivery.inventory_for, self.caller, body["conversation_id"], named_conversation=body["conversation_id"]
        )
        await self._send("inventory", conversation_id=body["conversation_id"], **inventory.published())

    async def on_conversation_state_get(self, body: dict[str, Any]) -> None:
        # Read-only: what runs in the conversation, as its apps' manifests let an Agent read it.
        state = await self._checked(
            delivery.what_runs_for, self.caller, body["conversation_id"], named_conversation=body["conversation_id"]
        )
        await self._send("conversation.state", **state)

    async def on_tool_call(self, body: dict[str, Any]) -> None:
        attributes = {"lineup.tool": body["tool"], "lineup.conversation_id": body["conversation_id"]}
        with tracing.span("tool.call", attributes=attributes) as span:
            outcome = await self._checked(
                route_tool_call,
                caller=self.caller,
                conversation_id=body["conversation_id"],
                source_tool_call_id=body["source_tool_call_id"],
                tool=body["tool"],
                arguments=body["arguments"],
                inventory_revision=body["inventory_revision"],
                now=timezone.now(),
                named_conversation=body["conversation_id"],
            )
            tracing.annotate(span, operation_id=getattr(outcome, "operation_id", None))
        common = {"conversation_id": body["conversation_id"], "source_tool_call_id": body["source_tool_call_id"]}
        if isinstance(outcome, Accepted):
            extra = {"result": outcome.result} if outcome.result is not None else {}
            await self._send(
                "tool.accepted",
                **common,
                operation_id=str(outcome.operation_id),
                instance_id=str(outcome.instance_id),
                app_session_id=str(outcome.app_session_id),
                replayed=outcome.replayed,
                **extra,
            )
        elif isinstance(outcome, Receipt):
            await self._send("tool.receipt", **common, receipt=outcome.receipt, replayed=outcome.replayed)
        else:
            # An ambiguous stop lists what it could have meant; every other rejection is code + detail.
            listed = {"candidates": outcome.candidates} if outcome.candidates is not None else {}
            await self._send("tool.rejected", **common, code=outcome.code, detail=outcome.detail, **listed)
        self._log("agent.tool_call", tool=body["tool"], outcome=type(outcome).__name__, **common)

    async def on_message_send(self, body: dict[str, Any]) -> None:
        message = await self._checked(
            delivery.send_agent_message,
            self.caller,
            self.agent,
            body,
            now=timezone.now(),
            named_conversation=body["conversation_id"],
        )
        await self._send(
            "message.sent",
            conversation_id=body["conversation_id"],
            message_id=str(message.id),
            app_session_id=str(message.app_session_id) if message.app_session_id else None,
        )

    async def on_interaction_request(self, body: dict[str, Any]) -> None:
        interaction = await self._checked(
            delivery.request_agent_interaction,
            self.caller,
            self.agent,
            body,
            now=timezone.now(),
            named_conversation=body["conversation_id"],
        )
        await self._send(
            "interaction.pending",
            conversation_id=body["conversation_id"],
            interaction_id=interaction.interaction_id,
            status=interaction.status,
        )
        if interaction.status != "pending":  # a retry of one that was already resolved
            await self._deliver(results=False, user_messages=False)

    async def on_interaction_withdraw(self, body: dict[str, Any]) -> None:
        interaction = await self._checked(
            delivery.withdraw_agent_interaction,
            self.caller,
            self.agent,
            body,
            now=timezone.now(),
            named_conversation=body["conversation_id"],
        )
        await self._send(
            "interaction.withdrawn",
            conversation_id=body["conversation_id"],
            interaction_id=interaction.interaction_id,
            status=interaction.status,
        )
        # Its interaction.resolved (superseded, or whatever it had already become) follows.
        await self._deliver(results=False, user_messages=False)

    async def on_outbox_ack(self, body: dict[str, Any]) -> None:
        await self._checked(delivery.ack, self.agent, body["outbox_id"], now=timezone.now())
        self._log("outbox.ack_received", outbox_id=body["outbox_id"])

    async def on_message_ack(self, body: dict[str, Any]) -> None:
        await self._checked(delivery.ack_user_message, self.agent, body["message_id"], now=timezone.now())
        self._log("user_message.ack_received", message_id=body["message_id"])

    async def on_interaction_ack(self, body: dict[str, Any]) -> None:
        await self._checked(
            delivery.ack_interaction,
            self.agent,
            self.caller,
            body,
            now=timezone.now(),
            named_conversation=body["conversation_id"],
        )
        self._log("interaction_resolution.ack_received", interaction_id=body["interaction_id"])

    # --- hints from the channel layer -----------------------------------------------------

    async def conversation_events(self, message: dict[str, Any]) -> None:
        """The events one transaction made in a conversation: one credential check, one read each."""
        events = message.get("events") or []
        kinds = {event.get("kind") for event in events}
        human_message = any(
            e.get("kind") == "message.created" and e["payload"].get("author_kind") == "human" for e in events
        )
        if not kinds & {"operation.settled", "interaction.resolved"} and not human_message:
            return
        if self.ended or self.agent is None:
            return
        pushed, unread = delivery.pushed_results(str(self.agent.id), events)
        # A settlement's hint carries its result (runtime.projections.result_delivery): written at
        # once, without reading the outbox, while this connection's credential was read within
        # LINEUP_AGENT_CREDENTIAL_SECONDS (every frame reads it); otherwise read as before, which
        # re-reads it. Another Agent's settlement in the conversation costs no read at all.
        fresh = time.monotonic() - self.credential_read_at <= settings.LINEUP_AGENT_CREDENTIAL_SECONDS
        read_results = unread or (bool(pushed) and not fresh)
        resolutions = "interaction.resolved" in kinds
        if not (read_results or human_message or resolutions or pushed):
            return
        settled = next((e for e in events if e.get("kind") == "operation.settled" and e.get("trace")), None)
        try:
            # A settlement's result continues the trace of the decision that settled it.
            with (
                tracing.span(
                    "tool.result",
                    parent=settled["trace"] if settled else None,
                    attributes={"lineup.operation_id": settled["payload"].get("operation_id") if settled else None},
                )
                if settled
                else contextlib.nullcontext()
            ):
                if pushed and fresh:
                    await self._push_results(pushed)
                if read_results or human_message or resolutions:
                    await self._deliver(results=read_results, user_messages=human_message, resolutions=resolutions)
        except Exception:  # e.g. the database restarting: the redelivery loop's next round retries
            logger.exception("agent.hint_failed", connection_id=self.connection_id, kinds=sorted(map(str, kinds)))

    async def conversation_resync(self, message: dict[str, Any]) -> None:
        """A batch settlement told many conversations with one message (runtime.projections): when
        one of them is this Agent's, read what is waiting for it, as for a hint without its result."""
        if self.ended or self.agent is None:
            return
        if not set(message.get("conversation_ids") or ()) & set(map(str, self.conversation_ids)):
            return
        try:
            await self._deliver(results=True, user_messages=False, resolutions=False)
        except Exception:  # e.g. the database restarting: the redelivery loop's next round retries
            logger.exception("agent.hint_failed", connection_id=self.connection_id, kinds=["conversation.resync"])

    async def agent_events(self, message: dict[str, Any]) -> None:
        # A hint like the others: the connection ends on what the database says, so the revocation
        # of another token of this Agent leaves it open.
        if {e.get("kind") for e in message.get("events") or []} & {"agent.revoked", "agent.deactivated"}:
            await self._still_authorized()

    # One event per message: what a server of the previous release sends during a rolling upgrade.
    async def conversation_event(self, event: dict[str, Any]) -> None:
        await self.conversation_events({"events": [event]})

    async def agent_event(self, event: dict[str, Any]) -> None:
        await self.agent_events({"events": [event]})

    async def _checked(self, call: Any, /, *args: Any, **kwargs: Any) -> Any:
        """``call(*args, **kwargs)`` on a database thread, after re-reading this connection's
        credential in the same call; raises ``_Ended`` (the connection told and closed) if it is gone.

        ``named_conversation`` (a frame's conversation_id, for a service that reads it through
        ``access_conversation``): the credential and that row are read in one statement.

        The token and its user were checked at hello; a frame that arrives after a revocation or a
        deactivation but before its hint (or whose hint was lost: hints are best effort, and a bulk
        update sends none) must not be handled. The read is one indexed row in the frame's own hop
        (before, a hop of its own), so no time-based cache can let such a frame through.
        """
        refusal, value = await run_db(delivery.authorized_call, self.token_digest, call, *args, **kwargs)
        if refusal is not None:
            await self._end(refusal)
            raise _Ended
        self.credential_read_at = time.monotonic()
        return value

    async def _still_authorized(self) -> bool:
        """Re-read this connection's token and user; if either is gone, end the connection."""
        if self.ended or self.agent is None:  # closing, or never welcomed: nothing to act for
            return False
        refusal = await run_db(token_refusal, self.token_digest)
        if refusal is None:
            self.credential_read_at = time.monotonic()
            return True
        await self._end(refusal)
        return False

    async def _end(self, refusal: str) -> None:
        # A frame's check and the redelivery round's may both find the credential gone: the
        # connection is told and closed once (a second error and close would follow the close).
        if self.ended:
            return
        self.ended = True
        await self._error("unauthorized", REFUSALS[refusal])
        self._log("agent." + refusal)
        await self.close(code=CLOSE_UNAUTHENTICATED, reason=REFUSALS[refusal][:120])

    # --- delivery from the database -------------------------------------------------------

    async def _deliver(
        self, *, results: bool = True, user_messages: bool = True, resolutions: bool = True, everything: bool = False
    ) -> bool:
        """Re-check the credential and send what is waiting for this Agent, in one worker-thread call.

        What is read is marked as sent, so the check comes first; ``everything`` (on ``welcome``) takes
        the oldest pages whatever their backoff. False when the connection was ended instead.
        """
        if self.ended or self.agent is None:  # closing, or never welcomed: nothing to act for
            return False
        waiting = await run_db(
            delivery.waiting_for,
            self.agent,
            self.token_digest,
            results=results,
            user_messages=user_messages,
            resolutions=resolutions,
            everything=everything,
            now=timezone.now(),
        )
        if waiting.refusal is not None:
            await self._end(waiting.refusal)
            return False
        self.credential_read_at = time.monotonic()
        for entry, attempts in waiting.results:
            await self._send("tool.result", **entry)
            self._log(
                "outbox.redelivered" if attempts > 0 else "outbox.delivered",
                outbox_id=entry["outbox_id"],
                source_tool_call_id=entry["source_tool_call_id"],
                conversation_id=entry["conversation_id"],
            )
        for payload in waiting.user_messages:
            await self._send("user.message", **payload)
            self._log("user_message.delivered", message_id=payload["message_id"])
        for payload in waiting.resolutions:
            await self._send("interaction.resolved", **payload)
            self._log("interaction_resolution.delivered", interaction_id=payload["interaction_id"])
        return True

    async def _push_results(self, bodies: list[dict[str, Any]]) -> None:
        """Write results a settlement's hint carried, then count their first send (decision 0032)."""
        for body in bodies:
            await self._send("tool.result", **body)
            self._log(
                "outbox.delivered",
                outbox_id=body["outbox_id"],
                source_tool_call_id=body["source_tool_call_id"],
                conversation_id=body["conversation_id"],
                pushed=True,
            )
        await run_db(delivery.count_pushed, [body["outbox_id"] for body in bodies], now=timezone.now())

    async def _redeliver_forever(self) -> None:
        while True:
            await asyncio.sleep(self._redelivery_seconds())
            try:
                # Also closes an idle connection whose credential is gone and whose hint was lost.
                if not await self._deliver():
                    return
            except Exception:  # keep the loop alive; the next round retries
                logger.exception("agent.redelivery_failed", connection_id=self.connection_id)

    async def _heartbeat_forever(self) -> None:
        """Keep this connection's row fresh, so it counts as live on the Agents page."""
        while True:
            await asyncio.sleep(settings.LINEUP_AGENT_HEARTBEAT_SECONDS)
            try:
                await run_db(
                    agent_connection_seen,
                    connection_id=self.row_id,
                    agent_id=self.agent.id,
                    digest=self.token_digest,
                    now=timezone.now(),
                )
            except Exception:  # keep the loop alive; the next beat retries
                logger.exception("agent.heartbeat_failed", connection_id=self.connection_id)

    async def _close_without_hello(self) -> None:
        timeout = settings.LINEUP_WS_HELLO_TIMEOUT_SECONDS
        await asyncio.sleep(timeout)
        if self.agent is None and not self.ended:
            self.ended = True
            await self._error("not_authenticated", f"no hello within {timeout:g} s")
            await self.close(code=CLOSE_UNAUTHENTICATED, reason="no hello in time")

    # --- frames out -----------------------------------------------------------------------

    async def _send(self, frame_type: str, **body: Any) -> None:
        await self.send(text_data=encode({"type": frame_type, **body}))
        crashpoints.point("after-write")

    async def _refuse_frame(self, error: FrameError) -> None:
        """Answer a frame that failed parsing, naming the request it carried where it carried one.

        A ``tool.call`` whose first fault is its ``arguments`` is still a call: it goes to the Tool
        Router like any other, which rejects it (``tool.rejected invalid_arguments``, logged as a
        decision), so the Agent's pending call ends with an answer it can match.
        """
        body = error.body or {}
        where = error.where or ""
        if (
            body.get("type") == "tool.call"
            and self.agent is not None
            and (where == "arguments" or where.startswith("arguments/"))
        ):
            await self.on_tool_call(body)
            return
        await self._error(error.code, error.detail, **error.correlation(CORRELATION_FIELDS))

    async def _error(self, code: str, detail: str, **context: Any) -> None:
        # Request ids of the frame answered are echoed, so an Agent with several in flight can tell.
        echoed = {k: v for k, v in context.items() if k in CORRELATION_FIELDS}
        await self._send("error", code=str(code), detail=detail, **echoed)
        self._log("agent.frame_rejected", code=str(code), detail=detail, **context)

    def _log(self, event: str, **fields: Any) -> None:
        agent_id = str(self.agent.id) if self.agent is not None else None
        logger.info(event, connection_id=self.connection_id, agent_id=agent_id, **fields)

    @staticmethod
    def _redelivery_seconds() -> float:
        return settings.LINEUP_OUTBOX_REDELIVERY_SECONDS
