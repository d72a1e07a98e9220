"""The reference Agent's protocol logic, independent of the transport (docs/agent-protocol.md).

``ReferenceAgent`` is fed every frame the server sends (``await agent.handle(frame)``) and
answers through the async ``send(frame)`` it was given, so tests drive it with a fake transport
and ``agents.common.client`` drives it over a real WebSocket. One instance serves one Agent token (one
user's conversations) and outlives reconnects: ``disconnected()`` then the next ``welcome``
resend the tool calls that were never answered, with the same ``source_tool_call_id`` (answered
from the stored rows if the server had already handled them, docs/decisions/0002).

What it remembers is small and only a convenience: rounds by call id (to name the activity in the
result), confirms by interaction id, and the ``outbox_id`` s / message ids already handled (to
dedupe at-least-once redeliveries). Everything needed to report a result comes from the result
itself — durations from ``started_at`` / ``ends_at`` / ``ended_at``, the language from its own call
id (``ref.<lang>.<hex>``) — so a result of a call made before a restart is still reported, and a
confirm id carries its language and duration (``again.<lang>.<seconds>.<outbox_id>``).

What it needs besides the person's words comes over the wire too (docs/decisions/0048): what runs
from ``conversation.state`` (asked for "how long is left?", and on the first ``welcome`` to name the
activity of an operation running across a restart), the person's language from ``user.message``.

Call ids derive from what caused the call (the person's message id, the confirm's interaction id),
so a message or an answer delivered twice can never start two operations.

Size (~740 lines): one frame handler per server frame type, kept in one class so the whole
conversation of an Agent with the server reads top to bottom; the call-id scheme above is what a
split would put in a module of its own (a candidate once the handlers grow).
"""

from __future__ import annotations

import functools
import re
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar, cast

import structlog

from agents.common.client import Send
from agents.reference import declared, generate, replies
from agents.reference.declared import DeclaredApp, DeclaredIntent
from agents.reference.intents import (
    MAX_DURATION_SECONDS,
    DurationOutOfRange,
    Help,
    Intent,
    Language,
    Start,
    Status,
    Stop,
    apps_taking,
    as_answer,
    detect_language,
    parse_intent,
)

logger = structlog.get_logger("lineup.reference_agent")

CALL_PREFIX = "ref"
CONFIRM_PREFIX = "again"
# "Start it for 10 hours?": a request over an app's declared ``grammar.long_seconds`` is confirmed before
# it starts (a typo such as "600 minutes" for "60 minutes" must not silently hold the person for hours).
LONG_PREFIX = "long"
# Not understood: a choice of what the installed apps declare as ``suggestions``; a tap is handled as if the
# person had typed the option (its id is the request's text). "How long?": a choice of the app's
# ``grammar.suggested_seconds``, the tap answers the question like a typed duration.
CHOOSE_PREFIX = "choose"
HOW_LONG_PREFIX = "howlong"
# "Which app?": a length said with no app and no work; the options are the apps that take it, a tap answers
# as if that app had asked "how long?" (the id keeps the language and the length, the value the app).
WHICH_APP_PREFIX = "whichapp"
MAX_SUGGESTIONS = 5  # a choice card a phone shows without scrolling, "what can you do?" included
# uuid5 namespace for call ids derived from a message or an interaction (any fixed uuid works).
_IDS = uuid.UUID("6f1c2b54-9d7e-4f0a-8c37-2f7f6b0c9e11")
REMEMBER = 4096  # per kind; far more than one person's rounds between restarts
# "Start another round?" is a question about now: left unanswered it times out within minutes
# rather than offering a stale round later, and the next one supersedes it (the "again." topic of
# its id, interact.services.interactions).
CONFIRM_TIMEOUT_SECONDS = 5 * 60

# What runs in a conversation (a ``conversation.state`` frame) to whoever asked for it.
StateAsk = Callable[[dict[str, Any]], Awaitable[None]]
# After a fresh start, what runs is read for at most this many of the Agent's conversations (to name
# the activity of an operation running across the restart when its result comes).
STATE_READS_ON_FIRST_WELCOME = 16

K = TypeVar("K")
V = TypeVar("V")


class Bounded(Generic[K, V]):
    """A dict that forgets its oldest keys beyond ``limit`` (dedupe memory must not grow forever)."""

    def __init__(self, limit: int = REMEMBER) -> None:
        self.limit = limit
        self._items: OrderedDict[K, V] = OrderedDict()

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        return self._items.get(key)

    def pop(self, key: K) -> V | None:
        return self._items.pop(key, None)

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.limit:
            self._items.popitem(last=False)


@dataclass(frozen=True)
class Round:
    """One start as the person asked for it (``app_id``: whose; None: the default app's)."""

    duration_seconds: int
    activity: str | None
    language: Language
    app_id: str | None = None
    choice: str | None = None


@dataclass
class PendingCall:
    """A tool call not answered yet (it is resent after a reconnect)."""

    conversation_id: str
    source_tool_call_id: str
    tool: str
    arguments: dict[str, Any]
    language: Language
    round: Round | None = None
    refetched: bool = False  # stale_inventory: fetched the Inventory again and retried once
    in_flight: bool = False  # sent on the current connection


def call_id(language: Language, cause: str | None = None, *, prefix: str = CALL_PREFIX) -> str:
    """A ``source_tool_call_id``: ``ref.<lang>.<hex>``, derived from ``cause`` when there is one."""
    token = uuid.uuid5(_IDS, cause) if cause is not None else uuid.uuid4()
    return f"{prefix}.{language}.{token.hex}"


def language_of_call(source_tool_call_id: str, prefixes: tuple[str, ...] = (CALL_PREFIX,)) -> Language | None:
    """The language a call id of one of ``prefixes`` carries; None for another Agent's id."""
    parts = source_tool_call_id.split(".")
    if len(parts) == 3 and parts[0] in prefixes and parts[1] in ("en", "zh"):
        return parts[1]  # type: ignore[return-value]
    return None


def confirm_id(language: Language, duration_seconds: int, outbox_id: str) -> str:
    return f"{CONFIRM_PREFIX}.{language}.{duration_seconds}.{outbox_id}"


def long_confirm_id(language: Language, duration_seconds: int, message_id: str) -> str:
    """``long.<lang>.<seconds>.<hex>``: "start it for 10 hours?" before a long request starts."""
    return f"{LONG_PREFIX}.{language}.{duration_seconds}.{uuid.uuid5(_IDS, f'long:{message_id}').hex}"


def choose_id(message_id: str) -> str:
    """``choose.<hex>``: "did you mean …?" after a message the Agent did not understand."""
    return f"{CHOOSE_PREFIX}.{uuid.uuid5(_IDS, f'choose:{message_id}').hex}"


def how_long_id(app_id: str, message_id: str) -> str:
    """``howlong.<app>.<hex>``: durations offered for a start that said none; the app survives a restart."""
    return f"{HOW_LONG_PREFIX}.{app_id}.{uuid.uuid5(_IDS, f'howlong:{message_id}').hex}"


def which_app_id(language: Language, duration_seconds: int, message_id: str) -> str:
    """``whichapp.<lang>.<seconds>.<hex>``: the apps offered for a length said alone; survives a restart."""
    return f"{WHICH_APP_PREFIX}.{language}.{duration_seconds}.{uuid.uuid5(_IDS, f'whichapp:{message_id}').hex}"


def round_from_confirm_id(interaction_id: str) -> Round | None:
    """The round a confirm id describes (without its activity, which only memory holds)."""
    found = _language_and_length(interaction_id, CONFIRM_PREFIX, LONG_PREFIX)
    if found is None:
        return None
    return Round(duration_seconds=found[1], activity=None, language=found[0])


def _language_and_length(interaction_id: str, *prefixes: str) -> tuple[Language, int] | None:
    """``<prefix>.<lang>.<seconds>.<hex>`` (a confirm, a long start, "which app?"): its language and length."""
    parts = interaction_id.split(".", 3)
    if len(parts) != 4 or parts[0] not in prefixes or parts[1] not in ("en", "zh") or not parts[2].isdigit():
        return None
    seconds = int(parts[2])
    if not 1 <= seconds <= MAX_DURATION_SECONDS:
        return None
    return cast(Language, parts[1]), seconds


def agent_language(code: object) -> Language | None:
    """A page language code ("zh-hans", "en") as the Agent's language; None for an unknown one."""
    if not isinstance(code, str) or not code:
        return None
    if code.lower().startswith("zh"):
        return "zh"
    return "en" if code.lower().startswith("en") else None


def _seconds_between(start: str, end: str) -> int:
    return max(0, round((datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()))


# A start's result report as worded (conversation_id, text): how a composing Agent (agents.llm) keeps it.
ReportHook = Callable[[str, str], None]


class ReferenceAgent:
    """The protocol with the server, and the rule-based decisions of the reference Agent.

    The LLM Agent composes one (``agents.llm.agent``): it hands it every frame but the person's
    messages and the answers its turns wait for, and uses the few public methods below
    (``call``, ``say``, ``read_state``, …) — so the protocol's delivery rules have one implementation.
    """

    def __init__(
        self,
        send: Send,
        *,
        label: str = "reference",
        call_prefix: str = CALL_PREFIX,
        result_prefixes: tuple[str, ...] = (CALL_PREFIX,),
        log_prefix: str = "reference_agent",
        on_report: ReportHook | None = None,
    ) -> None:
        self._send = send
        self.label = label
        # Call ids this Agent makes (``<prefix>.<lang>.<hex>``) and those whose results it reports and acks.
        self.call_prefix = call_prefix
        self.result_prefixes = result_prefixes
        self.log_prefix = log_prefix
        self._on_report = on_report
        self.agent_id: str | None = None
        self.conversations: set[str] = set()
        self._revisions: dict[str, str] = {}  # conversation -> Inventory revision
        self._inventory_tools: dict[str, set[str]] = {}
        self._inventory_requested: set[str] = set()
        self._calls: dict[str, PendingCall] = {}  # source_tool_call_id -> unanswered call
        self._rounds: Bounded[str, Round] = Bounded()  # source_tool_call_id -> what was started
        self._announced: Bounded[str, bool] = Bounded()  # starts whose "started" was posted
        self._confirms: Bounded[str, Round] = Bounded()  # interaction_id -> the round it offers
        # "how long?" choice id -> (activity, choice) of the start it completes (the app is in the id)
        self._how_long_offers: Bounded[str, tuple[str | None, str | None]] = Bounded()
        self._results_done: Bounded[str, bool] = Bounded()  # outbox ids reported
        self._messages_seen: Bounded[str, bool] = Bounded()
        self._resolutions_seen: Bounded[str, bool] = Bounded()
        # conversation -> the activity of a start this Agent answered with "how long?": the next
        # message may be the bare answer ("25 minutes").
        self._asked_how_long: Bounded[str, str | None] = Bounded()
        # conversation -> (app id, choice) of a start asked for without a duration: the answer starts it.
        self._asked_app: Bounded[str, tuple[str, str | None]] = Bounded()
        # conversation -> its pending question ("another round?", "start a long one?"): withdrawn
        # once the person moves on.
        self._open_questions: Bounded[str, str] = Bounded()
        # conversation -> the person's language as the last user.message said it (page, else saved).
        self._languages: Bounded[str, Language] = Bounded()
        # operation -> its activity, as conversation.state showed it running: names the result of a
        # start made before this process did.
        self._activities: Bounded[str, str] = Bounded()
        # outbox id -> True: results whose activity was looked up once in what ended last.
        self._recalled: Bounded[str, bool] = Bounded()
        # conversation -> who waits for its conversation.state (asked once per connection).
        self._state_asks: dict[str, list[StateAsk]] = {}
        self._state_requested: set[str] = set()
        self._welcomed_once = False
        # conversation -> the installed apps its Inventory declares phrasings for (decision 0050); a
        # message is understood once they are known, so it waits for the Inventory until then.
        self._apps: dict[str, list[DeclaredApp]] = {}
        self._waiting_messages: dict[str, list[dict[str, Any]]] = {}
        # conversation -> results of a tool no Inventory has told this Agent about yet (after a restart):
        # which app's they are, and how to word them, comes with the Inventory.
        self._waiting_results: dict[str, list[dict[str, Any]]] = {}
        # tool name -> the declared app whose start / stop / read / add it is (from the last Inventory).
        self._declared_tools: dict[str, DeclaredApp] = {}
        # conversation -> (app id, the start call) of an app this Agent started there last, that runs: a
        # bare "stop" stops it.
        self._declared_running: Bounded[str, tuple[str, str]] = Bounded()

    # --- connection events (from the client) ---------------------------------------------------

    def disconnected(self) -> None:
        """The connection is gone: whatever was in flight gets resent after the next welcome."""
        for call in self._calls.values():
            call.in_flight = False
        self._inventory_requested.clear()
        self._state_requested.clear()

    async def close(self) -> None:
        """The client is stopping for good (this Agent has no background work of its own)."""

    @property
    def pending_calls(self) -> list[PendingCall]:
        return list(self._calls.values())

    # --- frames in -------------------------------------------------------------------------------

    async def handle(self, frame: dict[str, Any]) -> None:
        handler = getattr(self, "_on_" + str(frame.get("type", "")).replace(".", "_"), None)
        if handler is None:
            self._log("frame_ignored", frame_type=frame.get("type"))
            return
        await handler(frame)
        # Acked once handled, duplicates too: the server sends each again until it has seen the ack.
        if frame.get("type") == "user.message":
            await self._send({"type": "message.ack", "message_id": frame["message_id"]})
        elif frame.get("type") == "interaction.resolved":
            await self._send(
                {
                    "type": "interaction.ack",
                    "conversation_id": frame["conversation_id"],
                    "interaction_id": frame["interaction_id"],
                }
            )

    async def _on_welcome(self, frame: dict[str, Any]) -> None:
        self.agent_id = frame["agent_id"]
        self.conversations = set(frame["conversations"])
        self._log("welcomed", conversations=len(self.conversations))
        for call in list(self._calls.values()):
            if call.conversation_id not in self.conversations:
                self._calls.pop(call.source_tool_call_id)
                continue
            await self._dispatch(call)
        for conversation_id in list(self._state_asks):  # asked before the connection dropped
            await self._request_state(conversation_id)
        for conversation_id in list({**self._waiting_messages, **self._waiting_results}):  # waiting for the Inventory
            if conversation_id in self.conversations:
                await self.request_inventory(conversation_id)
            else:
                self._waiting_messages.pop(conversation_id, None)
                self._waiting_results.pop(conversation_id, None)
        if not self._welcomed_once:
            self._welcomed_once = True
            for conversation_id in sorted(self.conversations)[:STATE_READS_ON_FIRST_WELCOME]:
                await self._request_state(conversation_id)

    async def _on_conversation_state(self, frame: dict[str, Any]) -> None:
        conversation_id = frame["conversation_id"]
        self._state_requested.discard(conversation_id)
        for operation in [*frame.get("operations", []), *frame.get("recently_ended", [])]:
            if operation.get("activity"):
                self._activities.put(operation["operation_id"], operation["activity"])
        for ask in self._state_asks.pop(conversation_id, []):
            await ask(frame)

    async def _read_state(self, conversation_id: str, then: StateAsk) -> None:
        """Ask the server what runs in the conversation (``conversation.state.get``); ``then`` gets the answer."""
        self._state_asks.setdefault(conversation_id, []).append(then)
        await self._request_state(conversation_id)

    async def _request_state(self, conversation_id: str) -> None:
        if conversation_id in self._state_requested:
            return
        self._state_requested.add(conversation_id)
        await self._send({"type": "conversation.state.get", "conversation_id": conversation_id})

    async def _on_inventory(self, frame: dict[str, Any]) -> None:
        conversation_id = frame["conversation_id"]
        self._inventory_requested.discard(conversation_id)
        self._revisions[conversation_id] = frame["revision"]
        self._inventory_tools[conversation_id] = {tool["name"] for tool in frame["tools"]}
        apps = declared.apps_from_inventory(frame)
        self._apps[conversation_id] = apps
        for app in apps:
            for tool in app.tools.values():
                self._declared_tools[tool] = app
        for call in list(self._calls.values()):
            if call.conversation_id == conversation_id and not call.in_flight:
                await self._dispatch(call)
        for waiting in self._waiting_messages.pop(conversation_id, []):
            await self._understand(waiting)
        for result in self._waiting_results.pop(conversation_id, []):
            await self._on_tool_result(result)

    async def _on_user_message(self, frame: dict[str, Any]) -> None:
        message_id = frame["message_id"]
        if message_id in self._messages_seen:
            return
        self._messages_seen.put(message_id, True)
        conversation_id = frame["conversation_id"]
        if conversation_id not in self._apps:
            # What the installed apps teach comes with the Inventory: the message waits for it.
            self._waiting_messages.setdefault(conversation_id, []).append(frame)
            await self.request_inventory(conversation_id)
            return
        await self._understand(frame)

    async def _understand(self, frame: dict[str, Any]) -> None:
        """What the person asked: an installed app's declared phrasing first, else the Agent's own grammar."""
        conversation_id, message_id, text = frame["conversation_id"], frame["message_id"], frame["text"]
        apps = self._apps.get(conversation_id, [])
        found = declared.match(apps, text, detect_language(text))
        if found is not None:
            language = self._language_of(conversation_id, frame, fallback=found.language)
            self._asked_how_long.pop(conversation_id)
            self._asked_app.pop(conversation_id)
            self._log(
                "intent",
                conversation_id=conversation_id,
                message_id=message_id,
                intent=f"{found.app.app_id}.{found.request}",
            )
            await self._act_declared(conversation_id, message_id, found, language)
            return
        asked = conversation_id in self._asked_how_long
        activity_asked_for = self._asked_how_long.pop(conversation_id)
        app_asked_for = self._asked_app.pop(conversation_id)
        intent = parse_intent(text, apps, awaiting_duration=asked)
        asked_app = _app(apps, app_asked_for[0]) if app_asked_for is not None else None
        if asked_app is not None and app_asked_for is not None:
            intent = as_answer(intent, asked_app, app_asked_for[1])
        elif app_asked_for is not None:
            intent = Help(language=intent.language)  # the app asked about is gone: never the default one
        if _names_another_app(intent, text, apps):
            # "start timer2 for 5 minutes" said otherwise than timer2 declares: never another app's start
            # with an activity named "timer2".
            intent = Help(language=intent.language)
        # The person's language, whatever script this one message used (an activity stays as typed).
        language = self._language_of(conversation_id, frame, fallback=intent.language)
        about = _about_a_named_app(intent, text, apps)
        if about is not None:
            self._log(
                "intent",
                conversation_id=conversation_id,
                message_id=message_id,
                intent=f"{about.app.app_id}.{about.request}",
            )
            await self._act_declared(conversation_id, message_id, about, language)
            return
        self._log("intent", conversation_id=conversation_id, message_id=message_id, intent=type(intent).__name__)
        await self._act(conversation_id, message_id, intent, language, activity_asked_for)

    async def _act(
        self, conversation_id: str, message_id: str, intent: Intent, language: Language, asked_activity: str | None
    ) -> None:
        apps = self._apps.get(conversation_id, [])
        if isinstance(intent, Start):
            app = _app(apps, intent.app_id)
            activity = intent.activity or (asked_activity if app is not None and app.activity else None)
            round_ = Round(intent.duration_seconds, activity, language, intent.app_id, intent.choice)
            await self._withdraw_question(conversation_id)  # starting something else answers "another round?"
            if app is not None and app.long_seconds and round_.duration_seconds > app.long_seconds:
                await self._confirm_long(conversation_id, message_id, round_, app)
            else:
                await self._start(conversation_id, round_, cause=f"message:{message_id}")
        elif isinstance(intent, Stop):
            await self._withdraw_question(conversation_id)
            for n, stop_tool in enumerate(self._stop_tools(conversation_id, intent.target)):
                cause = f"message:{message_id}" if n == 0 else f"message:{message_id}:{stop_tool}"
                await self._call(
                    conversation_id,
                    stop_tool,
                    {},
                    language=language,
                    source_tool_call_id=call_id(language, cause, prefix=self.call_prefix),
                )
        elif isinstance(intent, Status):
            await self._read_state(conversation_id, functools.partial(self._say_status, conversation_id, language))
        elif isinstance(intent, DurationOutOfRange):
            app = _app(apps, intent.app_id)
            await self._say(
                conversation_id,
                declared.reply(app, "out_of_range", language) if app else replies.out_of_range(language),
            )
        else:
            assert isinstance(intent, Help)
            if intent.topic == "which_app" and intent.duration_seconds is not None:
                await self._ask_which_app(conversation_id, message_id, apps, intent.duration_seconds, language)
                return
            app = _app(apps, intent.app_id) or _default_app(apps)
            if intent.missing_duration:
                self._asked_how_long.put(conversation_id, intent.activity)
                if intent.app_id is not None:
                    self._asked_app.put(conversation_id, (intent.app_id, intent.choice))
                if app is not None:
                    text = declared.reply(app, "ask_duration", language, activity=intent.activity)
                    await self._say(conversation_id, text)
                    await self._offer_durations(conversation_id, message_id, app, intent, language)
                    return
            default = _default_app(apps)
            await self._say(
                conversation_id,
                replies.help_text(
                    language,
                    missing_duration=intent.missing_duration,
                    topic=intent.topic,
                    apps=[(a.name(language), a.help[language]) for a in apps],
                    own=(lambda key: declared.reply(default, key, language)) if default is not None else None,
                ),
            )
            if intent.topic == "unknown" and not intent.missing_duration:
                await self._offer_suggestions(conversation_id, message_id, apps, language)

    def _stop_tools(self, conversation_id: str, target: str | None) -> list[str]:
        """What a stop stops: the app it names; all that run ("stop everything"); else what this Agent
        started here last and runs, else the default app's."""
        apps = self._apps.get(conversation_id, [])
        running = self._running_app(conversation_id)
        default = _default_app(apps)
        named = _app(apps, target) if target not in (None, "all") else None
        candidates: list[DeclaredApp | None]
        if named is not None:
            candidates = [named]
        elif target == "all":
            candidates = [running, default]
        else:
            candidates = [running or default]
        tools: list[str] = []
        for app in candidates:
            if app is not None and "stop" in app.tools and app.tools["stop"] not in tools:
                tools.append(app.tools["stop"])
        return tools

    async def _act_declared(
        self, conversation_id: str, message_id: str, intent: DeclaredIntent, language: Language
    ) -> None:
        """A request an installed app declared: its tool called with the slots, or what runs read."""
        app = intent.app
        if intent.request == "status":
            await self._read_state(
                conversation_id, functools.partial(self._say_declared_status, conversation_id, language, app)
            )
            return
        arguments: dict[str, Any] = {}
        for slot, value in intent.slots.items():
            if slot in app.arguments:
                arguments[app.arguments[slot]] = value
        if intent.request == "start":
            await self._withdraw_question(conversation_id)
        await self._call(
            conversation_id,
            app.tools[intent.request],
            arguments,
            language=language,
            source_tool_call_id=call_id(language, f"message:{message_id}", prefix=self.call_prefix),
        )

    def _running_app(self, conversation_id: str) -> DeclaredApp | None:
        running = self._declared_running.get(conversation_id)
        if running is None:
            return None
        return next((a for a in self._apps.get(conversation_id, []) if a.app_id == running[0]), None)

    async def _say_declared_status(
        self, conversation_id: str, language: Language, app: DeclaredApp, state: dict[str, Any]
    ) -> None:
        """ "How long is left on timer2?": the app's running operation, in its own words."""
        start_tool = app.tools.get("start")
        running = next((op for op in state.get("operations", []) if op.get("tool") == start_tool), None)
        if running is None or not running.get("ends_at"):
            await self._say(conversation_id, declared.reply(app, "nothing_running", language))
            return
        remaining = _seconds_between(datetime.now(UTC).isoformat(), running["ends_at"])
        text = declared.reply(
            app,
            "running",
            language,
            remaining=replies.duration_text(remaining, language),
            activity=running.get("activity"),
        )
        await self._say(conversation_id, text)

    def _language_of(self, conversation_id: str, frame: dict[str, Any] | None, *, fallback: Language) -> Language:
        """The person's language: the one ``frame`` (a user.message) names — the page's, else their saved
        one — else the one their last message named; ``fallback`` when none is known."""
        named = agent_language(frame.get("language")) if frame is not None else None
        if named is not None:
            self._languages.put(conversation_id, named)
            return named
        return self._languages.get(conversation_id) or fallback

    async def _say_status(self, conversation_id: str, language: Language, state: dict[str, Any]) -> None:
        """ "How long is left?": what runs (the default app's first, else another app's), or that none runs."""
        apps = self._apps.get(conversation_id, [])
        default = _default_app(apps)
        ordered = ([default] if default is not None else []) + [a for a in apps if a is not default]
        running = next(
            (
                app
                for app in ordered
                for op in state.get("operations", [])
                if "start" in app.tools and op.get("tool") == app.tools["start"] and op.get("ends_at")
            ),
            None,
        )
        if running is not None:
            await self._say_declared_status(conversation_id, language, running, state)
        elif default is not None:
            await self._say(conversation_id, declared.reply(default, "nothing_running", language))
        else:
            await self._say(conversation_id, replies.nothing_running(language))

    async def _confirm_long(self, conversation_id: str, message_id: str, round_: Round, app: DeclaredApp) -> None:
        """Ask before a start over the app's ``long_seconds``; "yes" starts it (``_on_interaction_resolved``)."""
        interaction_id = long_confirm_id(round_.language, round_.duration_seconds, message_id)
        self._confirms.put(interaction_id, round_)
        self._open_questions.put(conversation_id, interaction_id)  # a later start or stop withdraws it too
        prompt = declared.reply(
            app,
            "long",
            round_.language,
            duration=replies.duration_text(round_.duration_seconds, round_.language),
            activity=round_.activity,
        )
        await self._send(
            {
                "type": "interaction.request",
                "conversation_id": conversation_id,
                "interaction_id": interaction_id,
                "kind": "confirm",
                "prompt": prompt,
                "timeout_seconds": CONFIRM_TIMEOUT_SECONDS,
            }
        )

    async def _offer_suggestions(
        self, conversation_id: str, message_id: str, apps: list[DeclaredApp], language: Language
    ) -> None:
        """Not understood: what the installed apps can do, as requests to tap rather than to retype."""
        default = _default_app(apps)
        ordered = ([default] if default is not None else []) + [a for a in apps if a is not default]
        offered = dict.fromkeys(text for app in ordered for text in app.suggestions.get(language, ()))
        requests = [*list(offered)[: MAX_SUGGESTIONS - 1], replies.generic("what_can_you_do", language)]
        if len(requests) >= 2:
            await self._ask_choice(
                conversation_id,
                choose_id(message_id),
                replies.generic("did_you_mean", language),
                [{"id": text, "label": text} for text in requests],
            )

    async def _offer_durations(
        self, conversation_id: str, message_id: str, app: DeclaredApp, intent: Help, language: Language
    ) -> None:
        """ "How long?": the app's suggested durations, one tap each (a typed answer does as well)."""
        if len(app.suggested_seconds) < 2:
            return
        interaction_id = how_long_id(app.app_id, message_id)
        self._how_long_offers.put(interaction_id, (intent.activity, intent.choice))
        labels = [replies.duration_text(seconds, language) for seconds in app.suggested_seconds]
        await self._ask_choice(
            conversation_id,
            interaction_id,
            replies.generic("how_long", language),
            [{"id": label, "label": label} for label in labels],
        )

    async def _ask_which_app(
        self, conversation_id: str, message_id: str, apps: list[DeclaredApp], seconds: int, language: Language
    ) -> None:
        """ "Let's do 30 minutes": 30 minutes of which app? Each installed app that takes it, one tap each."""
        length = replies.duration_text(seconds, language)
        options = [
            {"id": app.app_id, "label": f"{app.name(language)} · {length}"} for app in apps_taking(apps, seconds)
        ]
        await self._ask_choice(
            conversation_id,
            which_app_id(language, seconds, message_id),
            replies.generic("which_app", language).format(duration=length),
            options,
        )

    async def _ask_choice(
        self, conversation_id: str, interaction_id: str, prompt: str, options: list[dict[str, str]]
    ) -> None:
        await self._withdraw_question(conversation_id)  # one question at a time: the newest is the one meant
        self._open_questions.put(conversation_id, interaction_id)
        await self._send(
            {
                "type": "interaction.request",
                "conversation_id": conversation_id,
                "interaction_id": interaction_id,
                "kind": "choice",
                "prompt": prompt,
                "options": options,
                "timeout_seconds": CONFIRM_TIMEOUT_SECONDS,
            }
        )

    async def _on_choice_resolved(self, frame: dict[str, Any]) -> None:
        """A tapped suggestion or duration is handled as the person's message of that text: the same
        understanding, the same call ids after a restart (the message id derives from the interaction)."""
        conversation_id, interaction_id = frame["conversation_id"], frame["interaction_id"]
        if self._open_questions.get(conversation_id) == interaction_id:
            self._open_questions.pop(conversation_id)
        offer = self._how_long_offers.pop(interaction_id)
        if frame["status"] != "answered" or not isinstance(frame.get("value"), str):
            return  # dismissed, timed out, superseded: the person moved on
        text = frame["value"]
        if interaction_id.startswith(f"{HOW_LONG_PREFIX}."):
            activity, choice = offer or (None, None)
            self._asked_how_long.put(conversation_id, activity)
            self._asked_app.put(conversation_id, (interaction_id.split(".")[1], choice))
        elif interaction_id.startswith(f"{WHICH_APP_PREFIX}."):
            asked = _language_and_length(interaction_id, WHICH_APP_PREFIX)
            if asked is None:
                return
            # the app tapped asked "how long?", and the length said before is the answer
            self._asked_how_long.put(conversation_id, None)
            self._asked_app.put(conversation_id, (text, None))
            text = replies.duration_text(asked[1], asked[0])
        await self._on_user_message(
            {
                "type": "user.message",
                "conversation_id": conversation_id,
                "message_id": f"choice:{interaction_id}",
                "text": text,
            }
        )

    async def _withdraw_question(self, conversation_id: str) -> None:
        """The person moved on (a new start, a stop): the pending "another round?" is withdrawn, so it
        never shows over the next start nor waits to be answered "yes" while one runs."""
        interaction_id = self._open_questions.pop(conversation_id)
        if interaction_id is None:
            return
        await self._send(
            {"type": "interaction.withdraw", "conversation_id": conversation_id, "interaction_id": interaction_id}
        )
        self._log("question_withdrawn", conversation_id=conversation_id, interaction_id=interaction_id)

    async def _on_tool_accepted(self, frame: dict[str, Any]) -> None:
        source_id = frame["source_tool_call_id"]
        call = self._calls.pop(source_id, None)
        round_ = call.round if call is not None else self._rounds.get(source_id)
        self._log("tool_accepted", source_tool_call_id=source_id, replayed=frame.get("replayed", False))
        app = self._declared_tools.get(call.tool) if call is not None else None
        if app is None and call is None and round_ is not None:
            app = _app(list(self._declared_tools.values()), round_.app_id)
        if app is None or (call is not None and call.tool != app.tools.get("start")):
            return
        if frame.get("result") is not None or source_id in self._announced:
            # Already final (a replay after it ended): its tool.result reports it.
            return
        if call is None and round_ is None:
            return
        self._announced.put(source_id, True)
        self._declared_running.put(frame["conversation_id"], (app.app_id, source_id))
        language = call.language if call is not None else round_.language  # type: ignore[union-attr]
        arguments = call.arguments if call is not None else {}
        seconds = arguments.get(app.arguments.get("duration", ""))
        if round_ is not None:
            seconds = round_.duration_seconds
        generated = arguments.get((app.generate or {}).get("argument", ""))
        text = declared.reply(
            app,
            "started",
            language,
            duration=replies.duration_text(seconds, language) if isinstance(seconds, int) else "",
            activity=round_.activity if round_ is not None else arguments.get(app.arguments.get("activity", "")),
            topic=arguments.get(app.arguments.get("topic", "")),
            count=len(generated) if isinstance(generated, list) else None,
            choice=app.choice_name(round_.choice if round_ else None, language),
        )
        await self._say(frame["conversation_id"], text, app_session_id=frame["app_session_id"])

    async def _on_tool_receipt(self, frame: dict[str, Any]) -> None:
        source_id = frame["source_tool_call_id"]
        call = self._calls.pop(source_id, None)
        status = frame["receipt"].get("status")
        self._log("tool_receipt", source_tool_call_id=source_id, status=status)
        app = self._declared_tools.get(call.tool) if call is not None else None
        if call is not None and app is not None:
            await self._declared_receipt(frame, call, app, status)

    async def _declared_receipt(self, frame: dict[str, Any], call: PendingCall, app: DeclaredApp, status: Any) -> None:
        """A declared app's short tool answered: a stop that stopped what this Agent started says nothing
        (the start's result reports it), one that stopped another's says so, any other that nothing ran;
        a read says the text, an add that it was added."""
        receipt, language, conversation_id = frame["receipt"], call.language, frame["conversation_id"]
        if call.tool == app.tools.get("stop"):
            running = self._declared_running.get(conversation_id)
            if status != "interrupted":
                await self._say(conversation_id, declared.reply(app, "nothing_running", language))
            elif (running is None or running[0] != app.app_id) and app.replies[language].get("stopped") != "":
                # Started by another Agent (or before this one ran): its result may not be ours to report.
                # An app that reports every result in this Agent's words declares "stopped" as "".
                await self._say(conversation_id, declared.reply(app, "stopped", language))
        elif call.tool == app.tools.get("read"):
            text = receipt.get("text")
            key = "read" if isinstance(text, str) and text.strip() else "read_empty"
            await self._say(conversation_id, declared.reply(app, key, language, text=text))
        elif call.tool == app.tools.get("add"):
            await self._say(
                conversation_id,
                declared.reply(app, "added", language, text=call.arguments.get(app.arguments.get("text", ""))),
            )

    async def _on_tool_rejected(self, frame: dict[str, Any]) -> None:
        source_id, code, detail = frame["source_tool_call_id"], frame["code"], frame["detail"]
        call = self._calls.get(source_id)
        self._log("tool_rejected", source_tool_call_id=source_id, code=code)
        if call is None:
            return
        if code == "stale_inventory" and not call.refetched:
            # Rejected calls are not stored, so the same id may go again once the Inventory is fresh.
            call.refetched, call.in_flight = True, False
            self._revisions.pop(call.conversation_id, None)
            await self._dispatch(call)
            return
        self._calls.pop(source_id)
        app = self._declared_tools.get(call.tool)
        if app is not None and call.tool == app.tools.get("stop"):
            text = declared.reply(app, "stop_refused", call.language, code=code, detail=detail)
        elif app is not None:
            # An operation running already is refused with the app's busy code (``*_running``, ``active_*``).
            busy = call.tool == app.tools.get("start") and (code.endswith("_running") or code.startswith("active_"))
            text = declared.reply(app, "busy" if busy else "refused", call.language, code=code, detail=detail)
        else:
            text = replies.refused(code, detail, call.language)
        await self._say(call.conversation_id, text)

    async def _on_tool_result(self, frame: dict[str, Any]) -> None:
        outbox_id, source_id = frame["outbox_id"], frame["source_tool_call_id"]
        language = language_of_call(source_id, self.result_prefixes)
        if language is None:
            # Another Agent of this user made that call: its result is that Agent's to ack.
            self._log("foreign_result_left", outbox_id=outbox_id, source_tool_call_id=source_id)
            return
        self._calls.pop(source_id, None)  # a result means the call was accepted, answer seen or not
        conversation_id = frame["conversation_id"]
        if (
            outbox_id not in self._results_done
            and frame.get("tool") not in self._declared_tools
            and conversation_id not in self._apps
        ):
            # Whose result this is (and its words) comes with the Inventory: reported and acked then.
            self._waiting_results.setdefault(conversation_id, []).append(frame)
            await self.request_inventory(conversation_id)
            return
        if outbox_id not in self._results_done:
            if isinstance(frame.get("result"), dict) and frame["result"].get("isError") is True:
                # The app could not shape its result (docs/agent-protocol.md): it ended all the same.
                self._rounds.pop(source_id)
                running = self._declared_running.get(frame["conversation_id"])
                if running is not None and running[1] == source_id:
                    self._declared_running.pop(frame["conversation_id"])
                await self._say(frame["conversation_id"], replies.result_failed(language))
                self._log("result_reported", outbox_id=outbox_id, state="error", level="warning")
            elif frame.get("tool") in self._declared_tools:
                app = self._declared_tools[frame["tool"]]
                if app.activity and self._activity_unknown(frame):
                    # Started before a restart and ended while this Agent was down: what it was for is
                    # in what ended last (conversation.state's recently_ended); this result comes back
                    # here once that answer is in, and is reported and acked then.
                    await self._read_state(frame["conversation_id"], then=lambda _state: self._on_tool_result(frame))
                    return
                await self._report(frame, app, language)
            # Marked only once the report went out: a connection lost half-way reports again.
            self._results_done.put(outbox_id, True)
        else:
            self._log("result_duplicate", outbox_id=outbox_id, source_tool_call_id=source_id)
        # Always ack, duplicates too: the server redelivers until it has seen an ack.
        await self._send({"type": "outbox.ack", "outbox_id": outbox_id})
        self._log("result_acked", outbox_id=outbox_id, source_tool_call_id=source_id)

    async def _on_interaction_resolved(self, frame: dict[str, Any]) -> None:
        interaction_id = frame["interaction_id"]
        if interaction_id in self._resolutions_seen:
            return
        self._resolutions_seen.put(interaction_id, True)
        if interaction_id.startswith((f"{CHOOSE_PREFIX}.", f"{HOW_LONG_PREFIX}.", f"{WHICH_APP_PREFIX}.")):
            await self._on_choice_resolved(frame)
            return
        round_ = self._confirms.pop(interaction_id) or round_from_confirm_id(interaction_id)
        app = self._app_of_round(frame["conversation_id"], round_) if round_ is not None else None
        self._log("interaction_resolved", interaction_id=interaction_id, status=frame["status"])
        if round_ is None or app is None:
            return
        conversation_id = frame["conversation_id"]
        if self._open_questions.get(conversation_id) == interaction_id:
            self._open_questions.pop(conversation_id)
        if frame["status"] == "answered" and frame.get("value") is True:
            await self._start(conversation_id, round_, cause=f"interaction:{interaction_id}")
        elif frame["status"] == "answered" and interaction_id.startswith(f"{LONG_PREFIX}."):
            await self._say(conversation_id, declared.reply(app, "long_declined", round_.language))
        elif frame["status"] == "answered":
            await self._say(conversation_id, declared.reply(app, "again_declined", round_.language))
        # dismissed / timed_out / failed / superseded: the person moved on; nothing to add.

    async def _on_message_sent(self, frame: dict[str, Any]) -> None:
        pass

    async def _on_interaction_pending(self, frame: dict[str, Any]) -> None:
        pass

    async def _on_interaction_withdrawn(self, frame: dict[str, Any]) -> None:
        pass  # its interaction.resolved (superseded) follows, and is acked there

    async def _on_error(self, frame: dict[str, Any]) -> None:
        # Errors carry no reference to the frame they answer. The only one this Agent expects is
        # app_session_ended: a very short operation ended before "started" reached its block;
        # the result report (in the main IM) follows anyway.
        self._log("server_error", code=frame.get("code"), detail=frame.get("detail"), level="warning")

    # --- decisions ---------------------------------------------------------------------------

    def _app_of_round(self, conversation_id: str, round_: Round) -> DeclaredApp | None:
        """The app a round starts: its own, else (a confirm id from before a restart) the app that offers
        another round here."""
        apps = self._apps.get(conversation_id) or list(self._declared_tools.values())
        return _app(apps, round_.app_id) or next((a for a in apps if a.offer_again), None) or _default_app(apps)

    async def _start(self, conversation_id: str, round_: Round, *, cause: str) -> None:
        app = self._app_of_round(conversation_id, round_)
        if app is None or "start" not in app.tools:
            text = (
                declared.reply(app, "not_available", round_.language) if app else replies.not_available(round_.language)
            )
            await self._say(conversation_id, text)
            return
        round_ = Round(round_.duration_seconds, round_.activity, round_.language, app.app_id, round_.choice)
        source_id = call_id(round_.language, cause, prefix=self.call_prefix)
        arguments: dict[str, Any] = {}
        if "duration" in app.arguments:
            arguments[app.arguments["duration"]] = round_.duration_seconds
        if round_.activity and "activity" in app.arguments:
            arguments[app.arguments["activity"]] = round_.activity
        if round_.choice is not None and "choice" in app.arguments:
            arguments[app.arguments["choice"]] = round_.choice
        name = app.choice_name(round_.choice, round_.language)
        if name and "choice_name" in app.arguments:
            arguments[app.arguments["choice_name"]] = name
        if app.generate is not None:
            # Seeded by the call id: a resent call carries the same arguments.
            arguments[app.generate["argument"]] = generate.items(app.generate, round_.choice, source_id)
        self._rounds.put(source_id, round_)
        await self._call(
            conversation_id,
            app.tools["start"],
            arguments,
            language=round_.language,
            round_=round_,
            source_tool_call_id=source_id,
        )

    async def _call(
        self,
        conversation_id: str,
        tool: str,
        arguments: dict[str, Any],
        *,
        language: Language,
        source_tool_call_id: str,
        round_: Round | None = None,
    ) -> None:
        call = PendingCall(conversation_id, source_tool_call_id, tool, arguments, language, round=round_)
        self._calls[source_tool_call_id] = call
        await self._dispatch(call)

    async def _dispatch(self, call: PendingCall) -> None:
        """Send ``call`` now if the Inventory revision is known, else fetch the Inventory first."""
        revision = self._revisions.get(call.conversation_id)
        if revision is None:
            await self.request_inventory(call.conversation_id)
            return
        if call.tool not in self._inventory_tools.get(call.conversation_id, {call.tool}):
            self._calls.pop(call.source_tool_call_id, None)
            app = self._declared_tools.get(call.tool)
            text = declared.reply(app, "not_available", call.language) if app else replies.not_available(call.language)
            await self._say(call.conversation_id, text)
            return
        call.in_flight = True
        await self._send(
            {
                "type": "tool.call",
                "conversation_id": call.conversation_id,
                "source_tool_call_id": call.source_tool_call_id,
                "tool": call.tool,
                "arguments": call.arguments,
                "inventory_revision": revision,
            }
        )
        self._log("tool_call_sent", tool=call.tool, source_tool_call_id=call.source_tool_call_id)

    async def _report(self, frame: dict[str, Any], app: DeclaredApp, language: Language) -> None:
        """Tell the person how the app's operation ended (main IM: its block is read-only now), in its words
        and with the result fields it declares (``report``); after a completed one, if the app offers it,
        another round. An interrupted one gets no such question: the person stopped or left it, so
        "another round?" would be about a moment that has passed."""
        result, outbox_id, conversation_id = frame["result"], frame["outbox_id"], frame["conversation_id"]
        running = self._declared_running.get(conversation_id)
        if running is not None and running[1] == frame["source_tool_call_id"]:
            self._declared_running.pop(conversation_id)
        language = self._language_of(conversation_id, None, fallback=language)
        if app.activity:
            self._recall_round(frame, language)
        remembered = self._rounds.pop(frame["source_tool_call_id"])
        planned = _seconds_between(result["started_at"], result["ends_at"])
        elapsed = _seconds_between(result["started_at"], result["ended_at"])
        activity = remembered.activity if remembered else None
        choice = remembered.choice if remembered else None
        fields = {name: _field(result, path) for name, path in app.report.items()}
        completed = result["state"] == "completed"
        text = declared.reply(
            app,
            "completed" if completed else "interrupted",
            language,
            duration=replies.duration_text(planned, language),
            elapsed=replies.duration_text(elapsed, language),
            reason=replies.reason_text(result.get("interruption_reason"), language, app.name(language)),
            activity=activity,
            **fields,
        )
        if self._on_report is not None:
            self._on_report(conversation_id, text)
        await self._say(conversation_id, text)
        if not completed or not app.offer_again:
            self._log("result_reported", outbox_id=outbox_id, state=result["state"], tool=frame["tool"])
            return
        interaction_id = confirm_id(language, planned, outbox_id)
        self._confirms.put(interaction_id, Round(planned, activity, language, app.app_id, choice))
        self._open_questions.put(conversation_id, interaction_id)
        prompt = declared.reply(
            app,
            "again",
            language,
            duration=replies.duration_text(planned, language),
            round=replies.round_adjective(planned) if language == "en" else replies.duration_text(planned, language),
        )
        await self._send(
            {
                "type": "interaction.request",
                "conversation_id": conversation_id,
                "interaction_id": interaction_id,
                "kind": "confirm",
                "prompt": prompt,
                "timeout_seconds": CONFIRM_TIMEOUT_SECONDS,
            }
        )
        self._log("result_reported", outbox_id=outbox_id, state=result["state"], interaction_id=interaction_id)

    def _activity_unknown(self, frame: dict[str, Any]) -> bool:
        """True once per result of a start this process neither made nor saw running."""
        outbox_id, result = frame["outbox_id"], frame["result"]
        if self._rounds.get(frame["source_tool_call_id"]) is not None or outbox_id in self._recalled:
            return False
        self._recalled.put(outbox_id, True)
        return self._activities.get(result.get("operation_id")) is None

    def _recall_round(self, frame: dict[str, Any], language: Language) -> None:
        """A result of a call this process does not remember (made before a restart): its activity as
        ``conversation.state`` showed the operation running, so the report still says what it was for."""
        source_id, result = frame["source_tool_call_id"], frame["result"]
        if self._rounds.get(source_id) is not None:
            return
        planned = _seconds_between(result["started_at"], result["ends_at"])
        app = self._declared_tools.get(frame.get("tool", ""))
        activity = self._activities.get(result["operation_id"])
        self._rounds.put(source_id, Round(planned, activity, language, app.app_id if app else None))

    async def _say(self, conversation_id: str, text: str, *, app_session_id: str | None = None) -> None:
        frame: dict[str, Any] = {"type": "message.send", "conversation_id": conversation_id, "text": text}
        if app_session_id is not None:
            frame["app_session_id"] = app_session_id
        await self._send(frame)

    # --- what a composing Agent (agents.llm) uses ------------------------------------------------

    def first_sight(self, message_id: str) -> bool:
        """True the first time ``message_id`` is seen (redeliveries are handled once)."""
        if message_id in self._messages_seen:
            return False
        self._messages_seen.put(message_id, True)
        return True

    async def request_inventory(self, conversation_id: str) -> None:
        """``inventory.get`` unless one is on its way on this connection."""
        if conversation_id in self._inventory_requested:
            return
        self._inventory_requested.add(conversation_id)
        try:
            await self._send({"type": "inventory.get", "conversation_id": conversation_id})
        except BaseException:
            self._inventory_requested.discard(conversation_id)
            raise

    def pending_call(self, source_tool_call_id: str) -> PendingCall | None:
        return self._calls.get(source_tool_call_id)

    def forget_call(self, source_tool_call_id: str) -> None:
        """Its answer was handed to whoever waited for it: nothing to resend."""
        self._calls.pop(source_tool_call_id, None)

    async def call(
        self,
        conversation_id: str,
        tool: str,
        arguments: dict[str, Any],
        *,
        language: Language,
        source_tool_call_id: str,
        round_: Round | None = None,
    ) -> None:
        """Make a tool call (resent after a reconnect until answered); a start's ``round_`` names its report."""
        if round_ is not None:
            self._rounds.put(source_tool_call_id, round_)
        await self._call(
            conversation_id, tool, arguments, language=language, source_tool_call_id=source_tool_call_id, round_=round_
        )

    async def withdraw_question(self, conversation_id: str) -> None:
        await self._withdraw_question(conversation_id)

    async def read_state(self, conversation_id: str, then: StateAsk) -> None:
        await self._read_state(conversation_id, then)

    def language_of(self, conversation_id: str, frame: dict[str, Any] | None, *, fallback: Language) -> Language:
        return self._language_of(conversation_id, frame, fallback=fallback)

    async def say(self, conversation_id: str, text: str, *, app_session_id: str | None = None) -> None:
        await self._say(conversation_id, text, app_session_id=app_session_id)

    async def send(self, frame: dict[str, Any]) -> None:
        await self._send(frame)

    def log(self, event: str, *, level: str = "info", **fields: Any) -> None:
        self._log(event, level=level, **fields)

    def _log(self, event: str, *, level: str = "info", **fields: Any) -> None:
        getattr(logger, level)(f"{self.log_prefix}.{event}", agent=self.label, agent_id=self.agent_id, **fields)


def _app(apps: list[DeclaredApp], app_id: str | None) -> DeclaredApp | None:
    return next((app for app in apps if app.app_id == app_id), None) if app_id is not None else None


def _default_app(apps: list[DeclaredApp]) -> DeclaredApp | None:
    """The app a start in no app's words is for (its declaration's ``grammar.default``)."""
    return next((app for app in apps if app.default and "start" in app.tools), None)


def _field(result: dict[str, Any], path: str) -> Any:
    """A result field by its dotted path ("score.correct"); None when it is not there."""
    value: Any = result
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _names_another_app(intent: Intent, text: str, apps: list[DeclaredApp]) -> bool:
    """An action of the Agent's own grammar on a message that names another installed app (by its id or
    its name in either language): the person meant that app, in words it does not declare."""
    if isinstance(intent, Start | DurationOutOfRange):
        own = intent.app_id
    elif isinstance(intent, Help) and intent.missing_duration:
        own = intent.app_id or getattr(_default_app(apps), "app_id", None)
    else:
        return False
    # Only an app that can be started is meant by a start ("review my notes for 15 minutes" is no start of Notes).
    return any("start" in app.tools for app in _named_apps(text, apps, besides=own))


def _named_apps(text: str, apps: list[DeclaredApp], *, besides: str | None = None) -> list[DeclaredApp]:
    """The installed apps ``text`` names by id or name in either language (other than ``besides``)."""
    lowered = text.lower()
    named = []
    for app in apps:
        if app.app_id == besides:
            continue
        names = {app.app_id.replace("_", " "), app.app_id, *(name.lower() for name in app.names.values())}
        # A Latin name is a whole word ("notes", not "footnotes"); a Chinese one anywhere.
        if any(name and re.search(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])", lowered) for name in names):
            named.append(app)
    return named


def _about_a_named_app(intent: Intent, text: str, apps: list[DeclaredApp]) -> DeclaredIntent | None:
    """A stop or status question of the Agent's own grammar that names one installed app ("stop timer2
    now", "is timer2 done yet?"): that app's stop or status, whatever words it declares — unless the
    grammar knows the app by its nouns already (its stop names it)."""
    if isinstance(intent, Stop):
        request, needs = "stop", "stop"
    elif isinstance(intent, Status):
        request, needs = "status", "start"
    else:
        return None
    named = [app for app in _named_apps(text, apps) if needs in app.tools]
    if len(named) != 1 or named[0].nouns["en"] or named[0].nouns["zh"] or named[0].default:
        return None
    return DeclaredIntent(app=named[0], request=request, language=intent.language)  # type: ignore[arg-type]
