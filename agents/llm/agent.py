"""The LLM Agent's protocol logic: the reference Agent's machinery, with a model making the decisions.

``LLMAgent`` composes a ``ReferenceAgent`` (``self.protocol``, made with the ``llm.`` call prefix):
every frame but the person's messages and the answers its turns wait for goes there, so the
Inventory fetches, resent calls after a reconnect, the one ``stale_inventory`` refetch, deduped and
acked ``tool.result`` s, the result report and the "another round?" confirm have one implementation;
the turns use its public methods (``call``, ``say``, ``read_state``, ``language_of``, …), never its
insides. The same ``AgentClient`` drives it. What it does itself: a person's message starts a *turn*, an asyncio task (one at a time per conversation,
so the history stays in order) that

1. sends the conversation's bounded history and its Inventory as OpenAI ``tools`` to the model, with
   the Inventory's installed ``apps`` named in the system prompt in the person's language
   (``agents.llm.apps``); a message that only asks for "help" is answered from those apps without the
   model (docs/decisions/0058);
2. for each tool call the model makes: parses the arguments (not one JSON object -> a clear IM
   message, nothing is sent), sends a ``tool.call`` with an id derived from the message, and waits
   for its answer (``tool.accepted`` / ``tool.receipt`` / ``tool.rejected``, which the read loop
   hands over through a future); a rejection for ``invalid_arguments`` — the Tool Router is the one
   place arguments are validated — is also told plainly in the IM;
3. feeds the answers back as ``tool`` messages and asks again, at most ``max_steps`` times, until
   the model answers with text, which is posted with ``message.send`` (into the sub-session block
   of the operation the turn started, if it did).

A model server that fails (after the SDK's bounded retries) ends the turn with a message saying
so; the next person's message is a new try. The long operation's final ``tool.result`` is reported
by the composed reference Agent — as it words it, the same every time — and joins the
history as a note so the model knows how the operation ended.

Nothing here is written for one app (issue 36): what the apps are and what they can do comes from
the Inventory (their tools, and their declarations in ``apps``); which tool starts or stops an
operation, and its duration argument, from the declaration (``phrasings.json``'s ``tools`` /
``arguments``); what runs from ``conversation.state``; and what a receipt says from the Runtime's own
receipt words (docs/decisions/0058).

The model only ever sees ``tool`` messages built from the frames the Runtime sent; call ids are
``llm.<lang>.<hex>``. It also reports and acks the results of ``ref.`` calls, the built-in
reference Agent's, because the two are one built-in slot: the LLM Agent takes over when configured.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from websockets.exceptions import ConnectionClosed

from agents.llm import grounding
from agents.llm import replies as llm_replies
from agents.llm.apps import InstalledApp, help_reply, installed_apps, instructions, names_line
from agents.llm.config import LLMConfig
from agents.llm.context import ContextWindow
from agents.llm.history import History
from agents.llm.model import ChatModel, ModelError, ModelReply, ToolCallRequest
from agents.llm.tools import (
    FUNCTION_NAME,
    MalformedArguments,
    ToolSet,
    compact_tools,
    parse_arguments,
    tool_set,
)
from agents.reference import declared, replies
from agents.reference.agent import (
    CALL_PREFIX,
    Bounded,
    ReferenceAgent,
    Round,
    Send,
    call_id,
)
from agents.reference.declared import DeclaredApp, apps_from_inventory
from agents.reference.intents import Language, detect_language, is_help_request

LLM_CALL_PREFIX = "llm"
MAX_STEPS = 4  # model requests per turn: a start, a stop-then-start and the summary fit easily
ANSWER_TIMEOUT_SECONDS = 30.0  # for a tool call's answer or an Inventory, across a reconnect
MAX_TEXT = 4000  # message.send's limit
# The Agent's own instructions name no app: the installed apps follow them (agents.llm.apps), each in
# its own declared words, and the tools say what each call takes.
SYSTEM_PROMPT = (
    "You are the assistant in LineUp, a workspace where the person talks to you in a chat. You drive the"
    " MiniApps installed here, listed below, only with the tools you are given; durations are in seconds"
    " (25 minutes = 1500). When the person asks for something an app does, call its tool; when they ask"
    " to stop, call the stop tool of what runs. LineUp tells the person itself when something ends."
    " When they ask how long is left or what is running, call the status function if you have it."
    " Never say you started, stopped or finished anything unless a tool result above says so."
    " Answer briefly, in plain text, in the language the person writes in."
)
# Said last, so even a small model sees it: the person's language, from the page or their setting.
LANGUAGE_LINE = {
    "en": " The person writes in English: answer in English.",
    "zh": " The person writes in Simplified Chinese: answer in Simplified Chinese (简体中文).",
}
# "Which did you mean?" when the model's number is not one the person said: the topic (before the
# first dot) makes a new question supersede this Agent's earlier one in the conversation.
ASK_PREFIX = "llmask"
ASK_TIMEOUT_SECONDS = 5 * 60
CANCEL_OPTION = "cancel"
# A receipt's words for "it stopped" (the Runtime's ``interrupt_operation`` says ``interrupted``), and
# the Runtime's own word for "it had already ended". Any other answer to a stop tool (an app's own
# "there was none" code, whatever it is called; such a receipt names no operation) says nothing stopped.
STOPPED_STATUSES = ("interrupted", "stopped")
ALREADY_FINAL = "operation_already_final"
SEND_ERRORS = (ConnectionError, ConnectionClosed)  # no connection right now: resent after a welcome
# "What is running, how long is left?": the reference Agent's status intent, as a function the model
# may call. It is the Agent's own (answered from what runs, read with conversation.state.get, never
# sent to LineUp as a tool call); its name has no "__", so it can not be mistaken for an Inventory tool.
STATUS_FUNCTION = "lineup_status"
STATUS_TOOL = {
    "type": "function",
    "function": {
        "name": STATUS_FUNCTION,
        "description": "What is running in this conversation and how many seconds are left. Takes nothing.",
        "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
    },
}


@dataclass
class TurnState:
    """What one turn has done so far."""

    conversation_id: str
    message_id: str
    language: Language
    text: str = ""  # the person's words: the numbers of a call must be among them
    app_session_id: str | None = None  # the operation it started, still open: where its reply goes
    started: str | None = None  # that start, as the Agent words it
    acted: bool = False  # some tool call reached LineUp
    asked: bool = False  # a call was turned into a question to the person: the turn ends there
    read_status: bool = False
    # What the Runtime confirmed this turn (grounding.Claim kinds), and each confirmed action as
    # the Agent words it: a reply claiming more is replaced by these words.
    confirmed: set[str] = field(default_factory=set)
    events: list[str] = field(default_factory=list)
    started_seconds: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Ask:
    """A call the Agent asked the person about instead of making it: the arguments each choice makes."""

    conversation_id: str
    tool: str
    choices: dict[str, dict[str, Any]]  # option id -> arguments (no entry: the "do nothing" option)
    labels: dict[str, str]
    language: Language


def system_prompt(language: Language, apps: tuple[InstalledApp, ...] = (), *, brief: bool = False) -> str:
    """The instructions: the Agent's own, the installed apps (from the Inventory) in the person's
    language, and the language line last. ``brief``: the apps by name only (a small context)."""
    return SYSTEM_PROMPT + instructions(apps, language, brief=brief) + LANGUAGE_LINE[language]


class LLMAgent:
    """The model's turns, composed with a ``ReferenceAgent`` that holds the protocol (``self.protocol``)."""

    def __init__(
        self,
        send: Send,
        *,
        config: LLMConfig,
        label: str = "llm",
        max_steps: int = MAX_STEPS,
        answer_timeout: float = ANSWER_TIMEOUT_SECONDS,
    ) -> None:
        # Its calls are ``llm.<lang>.<hex>``; it also reports and acks the reference Agent's ``ref.`` ones
        # (the two are one built-in slot). A start's report joins the history as a note.
        self.protocol = ReferenceAgent(
            send,
            label=label,
            call_prefix=LLM_CALL_PREFIX,
            result_prefixes=(LLM_CALL_PREFIX, CALL_PREFIX),
            log_prefix="llm_agent",
            on_report=lambda conversation_id, text: self._history(conversation_id).note(text),
        )
        self.label = label
        self.model = ChatModel(config)
        self.window = ContextWindow(config.context_tokens, reply_tokens=config.reply_tokens)
        self._asks: Bounded[str, Ask] = Bounded()  # interaction_id -> the call it holds back
        self._open_asks: dict[str, str] = {}  # conversation -> its pending question, withdrawn when they move on
        self.max_steps = max_steps
        self.answer_timeout = answer_timeout
        self._histories: dict[str, History] = {}
        self._tool_sets: dict[str, ToolSet] = {}
        self._apps: dict[str, tuple[InstalledApp, ...]] = {}  # conversation -> its Inventory's apps
        self._declared: dict[str, list[DeclaredApp]] = {}  # conversation -> the apps' declarations
        self._waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}  # source_tool_call_id -> its answer
        self._locks: dict[str, asyncio.Lock] = {}
        self._turns: set[asyncio.Task[None]] = set()
        self._connected = asyncio.Event()
        # Replaced after every inventory / welcome frame, so each waiter wakes once per arrival.
        self._inventory_arrived = asyncio.Event()
        self._next_welcome = asyncio.Event()

    # --- connection events ------------------------------------------------------------------------

    def disconnected(self) -> None:
        self.protocol.disconnected()
        self._connected.clear()

    async def close(self) -> None:
        for task in list(self._turns):
            task.cancel()
        for task in list(self._turns):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.model.close()

    # --- frames in (the read loop) ----------------------------------------------------------------

    async def handle(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "user.message":
            await self._on_user_message(frame)
            await self.protocol.send({"type": "message.ack", "message_id": frame["message_id"]})
            return
        if kind in ("tool.accepted", "tool.receipt") and self._answer(frame):
            return
        if kind == "tool.rejected":
            call = self.protocol.pending_call(frame["source_tool_call_id"])
            refetch = frame["code"] == "stale_inventory" and call is not None and not call.refetched
            if not refetch and self._answer(frame):
                return
            # else the protocol refetches and resends once, or words the rejection
        if kind == "inventory":
            self._tool_sets[frame["conversation_id"]] = tool_set(frame["tools"])
            self._apps[frame["conversation_id"]] = installed_apps(frame)
            self._declared[frame["conversation_id"]] = apps_from_inventory(frame)
        if kind == "interaction.resolved":
            ask = self._asks.pop(frame["interaction_id"])
            if ask is not None:
                await self._on_answer(frame, ask)
        # Everything else is the protocol's: resends, acks, result reports, the another-round confirm,
        # and the answers no turn waits for (a confirmed round, a timed-out turn).
        await self.protocol.handle(frame)
        if kind == "welcome":
            self._connected.set()
            welcomed, self._next_welcome = self._next_welcome, asyncio.Event()
            welcomed.set()
        elif kind == "inventory":
            arrived, self._inventory_arrived = self._inventory_arrived, asyncio.Event()
            arrived.set()

    async def _on_user_message(self, frame: dict[str, Any]) -> None:
        if not self.protocol.first_sight(frame["message_id"]):
            return
        # Not awaited: the turn waits for frames this read loop has to deliver.
        task = asyncio.create_task(self._turn(frame), name=f"llm-turn-{frame['message_id']}")
        self._turns.add(task)
        task.add_done_callback(self._turns.discard)

    def _answer(self, frame: dict[str, Any]) -> bool:
        """Hand a call's answer to the turn waiting for it; False when no turn is."""
        source_id = frame["source_tool_call_id"]
        waiter = self._waiters.pop(source_id, None)
        if waiter is None:
            return False
        self.protocol.forget_call(source_id)
        if not waiter.done():
            waiter.set_result(frame)
        return True

    # --- turns --------------------------------------------------------------------------------------

    def _history(self, conversation_id: str) -> History:
        return self._histories.setdefault(conversation_id, History())

    async def _turn(self, frame: dict[str, Any]) -> None:
        conversation_id = frame["conversation_id"]
        language = self.protocol.language_of(conversation_id, frame, fallback=detect_language(frame["text"]))
        turn = TurnState(conversation_id, frame["message_id"], language, text=frame["text"])
        async with self._locks.setdefault(conversation_id, asyncio.Lock()):
            try:
                await self._converse(turn, frame["text"])
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug must not silence the Agent: say so, keep serving
                self.protocol.log("turn_failed", level="exception", conversation_id=conversation_id)
                await self._say_soon(conversation_id, llm_replies.internal_error(turn.language))

    async def _converse(self, turn: TurnState, text: str) -> None:
        history = self._history(turn.conversation_id)
        messages = history.begin_turn(text)
        tools = await self._tools(turn.conversation_id)
        if tools is None:
            await self._say_soon(turn.conversation_id, llm_replies.tools_unavailable(turn.language))
            return
        if is_help_request(text) and (listing := help_reply(self._installed(turn), turn.language)):
            # "help" is answered from the Inventory itself, model or no model (docs/decisions/0058).
            messages.append({"role": "assistant", "content": listing})
            await self._say_soon(turn.conversation_id, listing[:MAX_TEXT])
            return
        for step in range(self.max_steps):
            reply = await self._complete(turn, history, [*tools.openai_tools, STATUS_TOOL], step=step)
            if reply is None:
                return
            self.protocol.log(
                "model_replied", conversation_id=turn.conversation_id, step=step, tool_calls=len(reply.tool_calls)
            )
            if not reply.tool_calls:
                answer = await self._final_text(turn, reply.text)
                messages.append({"role": "assistant", "content": answer})
                await self._say_soon(turn.conversation_id, answer[:MAX_TEXT], app_session_id=turn.app_session_id)
                return
            answers = []
            for index, request in enumerate(reply.tool_calls):
                if turn.asked:  # the person is asked about an earlier call of this reply: nothing more is done
                    content: dict[str, Any] = {"error": "not_done", "detail": "waiting for the person's answer"}
                else:
                    content = await self._run_tool_call(turn, tools, request, cause=f"{step}:{index}")
                answers.append(
                    {"role": "tool", "tool_call_id": request.id, "content": json.dumps(content, ensure_ascii=False)}
                )
            # Kept together or not at all: a tool_calls message without its answers breaks every later request.
            messages.extend([reply.assistant_message(), *answers])
            if turn.asked:
                return  # the question is the turn's answer; the person's choice makes (or not) the call
        await self._say_soon(turn.conversation_id, llm_replies.too_many_steps(self.max_steps, turn.language))

    async def _complete(
        self, turn: TurnState, history: History, tools: list[dict[str, Any]], *, step: int
    ) -> ModelReply | None:
        """The model's next reply, the request fitted into the server's context; None once the person was told why not.

        The oldest turns go first; then the tools' long descriptions; then what the installed apps
        can do (their names stay). A server that says the request did not fit teaches the context
        (``ContextWindow.learn``) and the request is fitted again — tried once more per step, and
        only when something was learned.
        """
        apps = self._installed(turn)
        full_prompt = system_prompt(turn.language, apps)
        short_tools = compact_tools(tools)
        shapes = (
            (tools, full_prompt),
            (short_tools, full_prompt),
            (short_tools, system_prompt(turn.language, apps, brief=True)),
        )
        retried = False
        while True:
            budget = self.window.prompt_budget
            # The first shape the current turn fits with; then the oldest turns go until the rest fits.
            fitted = None
            for offered, prompt in shapes:
                if budget is None or self.window.estimate(history.newest(prompt), offered) <= budget:
                    fitted = history.fitted(prompt, lambda m, o=offered: self.window.estimate(m, o), budget)
                    break
            if fitted is None:
                self.protocol.log("context_too_small", level="warning", limit=self.window.limit, step=step)
                await self._model_failed(turn, ModelError("context", "the current turn alone does not fit"))
                return None
            estimated = self.window.estimate(fitted, offered)
            try:
                return await self.model.complete(fitted, offered, max_tokens=self.window.reply_tokens)
            except ModelError as error:
                self.protocol.log("model_failed", level="warning", reason=error.reason, detail=error.detail, step=step)
                if error.overflow is not None and not retried and self.window.learn(error.overflow, estimated):
                    retried = True
                    self.protocol.log(
                        "context_learned",
                        limit=self.window.limit,
                        scale=round(self.window.scale, 3),
                        estimated=estimated,
                    )
                    continue
                await self._model_failed(turn, error)
                return None

    async def _final_text(self, turn: TurnState, text: str | None) -> str:
        """The model's reply as it may be posted: as text, grounded in what the Runtime answered, in the person's language.

        Anything else is replaced by the Agent's own words for what this turn did (decision 0051).
        """
        if text is None:
            return llm_replies.empty_reply(turn.language) if not turn.events else " ".join(turn.events)
        text = grounding.plain(text)
        reason = None
        if grounding.written_tool_call(text):
            reason = "written_tool_call"
        elif unconfirmed := grounding.claims(text, apps=self._grounding_apps(turn)) - turn.confirmed:
            reason = "unconfirmed_" + "_".join(sorted(unconfirmed))
        elif turn.started_seconds and not turn.read_status and (said := grounding.durations_said(text)):
            if not said & turn.started_seconds:
                reason = "wrong_duration"
        if reason is None and grounding.wrong_script(text, turn.language):
            reason = "wrong_language"
        if reason is None and grounding.echoes(text, SYSTEM_PROMPT):
            reason = "recited_instructions"
        if reason is None:
            return text
        self.protocol.log("reply_replaced", conversation_id=turn.conversation_id, reason=reason, level="warning")
        if reason == "written_tool_call" and not turn.events:
            return llm_replies.written_tool_call(turn.language)
        return " ".join(turn.events) or self._nothing_done(turn)

    def _installed(self, turn: TurnState) -> tuple[InstalledApp, ...]:
        return self._apps.get(turn.conversation_id, ())

    def _grounding_apps(self, turn: TurnState) -> tuple[InstalledApp | DeclaredApp, ...]:
        """The installed apps (their names) and their declarations (their nouns) a reply may claim to have run."""
        return (*self._installed(turn), *self._declared.get(turn.conversation_id, []))

    def _app_of(self, conversation_id: str, tool: str) -> DeclaredApp | None:
        """The declaration of ``tool``'s app in this conversation's Inventory (None: it declares none)."""
        app_id = tool.split(".", 1)[0]
        return next((app for app in self._declared.get(conversation_id, []) if app.app_id == app_id), None)

    def _nothing_done(self, turn: TurnState) -> str:
        """ "Nothing was done", and what is installed here (the Agent's own examples when nothing is known)."""
        installed = names_line(self._installed(turn), turn.language)
        return llm_replies.nothing_done(turn.language, installed=installed)

    async def _model_failed(self, turn: TurnState, error: ModelError) -> None:
        text = llm_replies.model_failed(error.reason, turn.language, acted=turn.acted)
        if not turn.acted:  # what the person can ask for when the model is back ("help" works without it)
            text += names_line(self._installed(turn), turn.language)
        await self._say_soon(turn.conversation_id, text)
        if turn.started is not None and turn.app_session_id is not None:
            # It runs although the model could not announce it: say it in the app's words.
            await self._say_soon(turn.conversation_id, turn.started, app_session_id=turn.app_session_id)

    async def _run_tool_call(
        self, turn: TurnState, tools: ToolSet, request: ToolCallRequest, *, cause: str
    ) -> dict[str, Any]:
        """Make one of the model's tool calls; returns what the model is told about it."""
        if request.name == STATUS_FUNCTION:
            status = await self._status_for_model(turn.conversation_id)
            turn.read_status = True
            if status.get("running"):
                turn.confirmed.update(("start", "result"))  # "it is running, 12 minutes left" is true
            return status
        if not FUNCTION_NAME.match(request.name):
            self.protocol.log("malformed_call", level="warning", function=request.name[:80])
            await self._say_soon(turn.conversation_id, llm_replies.malformed_call(turn.language))
            return {"error": "malformed_call", "detail": "a tool call needs a function name; nothing was done"}
        tool = tools.tool_for(request.name)
        if tool is None:
            # Not in this conversation's Inventory: an app that is not installed, or a name the model made up.
            self.protocol.log("unknown_function", level="warning", function=request.name)
            installed = frozenset(name.split(".", 1)[0] for name in tools.by_function.values())
            await self._say_soon(
                turn.conversation_id,
                llm_replies.unknown_function(request.name, turn.language, installed_apps=installed),
            )
            return {"error": "unknown_tool", "detail": f"there is no tool named {request.name!r}; nothing was done"}
        try:
            arguments = parse_arguments(request.arguments)
        except MalformedArguments as error:
            # Never reaches LineUp: there is no object to validate. Nothing was started.
            self.protocol.log("malformed_arguments", level="warning", tool=tool, detail=error.detail)
            await self._say_soon(turn.conversation_id, llm_replies.malformed_arguments(tool, turn.language))
            return {"error": "invalid_arguments", "detail": f"{error.detail}; nothing was done"}
        unsaid = grounding.ungrounded_numbers(arguments, turn.text)
        if unsaid:
            # A plausible wrong number ("25 minutes" -> 285 s) is worse than a question: the person chooses.
            self.protocol.log("numbers_unsaid", level="warning", tool=tool, arguments=sorted(unsaid))
            if not await self._ask(turn, tool, arguments, unsaid):
                await self._say_soon(turn.conversation_id, llm_replies.malformed_arguments(tool, turn.language))
                return {"error": "invalid_arguments", "detail": f"{sorted(unsaid)} not usable; nothing was done"}
            return {
                "error": "needs_confirmation",
                "detail": f"{', '.join(sorted(unsaid))} is not what the person said; they were asked; nothing was done",
            }
        frame = await self._call_and_wait(turn, tool, arguments, cause=cause)
        if frame is None:
            return {"error": "no_answer", "detail": "LineUp has not answered yet; the call is resent when it can be"}
        turn.acted = True
        return await self._outcome(turn, tool, arguments, frame)

    async def _call_and_wait(
        self, turn: TurnState, tool: str, arguments: dict[str, Any], *, cause: str
    ) -> dict[str, Any] | None:
        # Derived from the person's message: the same step of the same message is the same call.
        source_id = call_id(turn.language, f"llm:{turn.message_id}:{cause}", prefix=LLM_CALL_PREFIX)
        round_ = _round_of(self._app_of(turn.conversation_id, tool), tool, arguments, turn.language)
        waiter: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiters[source_id] = waiter
        try:
            with contextlib.suppress(*SEND_ERRORS):  # no connection: the questions time out on their own
                # Starting or stopping is the person moving on: "another round?" (and a question of
                # this Agent's about an earlier call) is withdrawn first.
                await self.protocol.withdraw_question(turn.conversation_id)
                await self._withdraw_ask(turn.conversation_id)
            with contextlib.suppress(*SEND_ERRORS):  # kept as a pending call: resent after the next welcome
                await self.protocol.call(
                    turn.conversation_id,
                    tool,
                    arguments,
                    language=turn.language,
                    source_tool_call_id=source_id,
                    round_=round_,
                )
            return await asyncio.wait_for(waiter, timeout=self.answer_timeout)
        except TimeoutError:
            self.protocol.log("call_unanswered", level="warning", source_tool_call_id=source_id, tool=tool)
            return None
        finally:
            self._waiters.pop(source_id, None)

    async def _outcome(
        self, turn: TurnState, tool: str, arguments: dict[str, Any], frame: dict[str, Any]
    ) -> dict[str, Any]:
        kind = frame["type"]
        app = self._app_of(turn.conversation_id, tool)
        if kind == "tool.accepted":
            if frame.get("result") is None:
                turn.app_session_id = frame["app_session_id"]
                turn.confirmed.add("start")
                round_ = _round_of(app, tool, arguments, turn.language)
                if round_ is not None:
                    turn.started_seconds.add(round_.duration_seconds)
                turn.started = _started_words(app, tool, round_, turn.language)
                turn.events.append(turn.started)
                return {
                    "status": "started",
                    "operation_id": frame["operation_id"],
                    "replayed": frame["replayed"],
                }
            turn.confirmed.add("result")
            return {"status": "already_ended", "operation_id": frame["operation_id"], "result": frame["result"]}
        if kind == "tool.receipt":
            status = frame["receipt"].get("status")
            if status == "interrupted":
                turn.app_session_id = None  # that block is read-only now; reply in the main IM
            if status in STOPPED_STATUSES:
                turn.confirmed.update(("stop", "result"))
                turn.events.append(llm_replies.stopped(turn.language))
            elif status == ALREADY_FINAL or _is_stop_tool(app, tool):
                # Nothing stopped: it had ended, or the app says (in its own code) none ran here.
                turn.events.append(llm_replies.nothing_was_running(turn.language))
            else:
                turn.confirmed.add("result")
                turn.events.append(llm_replies.done(tool, turn.language))
            return dict(frame["receipt"])
        code, detail = frame["code"], frame["detail"]
        if code == "invalid_arguments":
            await self._say_soon(turn.conversation_id, llm_replies.invalid_arguments(tool, turn.language))
        return {"error": code, "detail": detail}

    # --- questions instead of guesses ---------------------------------------------------------------

    async def _ask(self, turn: TurnState, tool: str, arguments: dict[str, Any], unsaid: dict[str, float]) -> bool:
        """Ask which number the person meant (an interaction with choices) instead of making the call;
        False when there is nothing sensible to offer (no number said, the model's unusable)."""
        key = sorted(unsaid)[0]
        asked_value = arguments[key]
        duration = key.endswith("_seconds")

        def label(value: float) -> str:
            whole = round(value)
            if duration:
                return replies.duration_text(whole, turn.language)
            return llm_replies.number_option(key, f"{value:g}", turn.language)

        said = grounding.person_durations(turn.text) if duration else []
        choices: dict[str, dict[str, Any]] = {}
        labels: dict[str, str] = {}
        if len(unsaid) == 1:  # with one wrong number, the person's own numbers are the other choices
            for index, seconds in enumerate(said[:3]):
                choices[f"said-{index}"] = {**arguments, key: seconds}
                labels[f"said-{index}"] = label(seconds)
        if not (duration and asked_value < 1):  # "0 seconds" is no choice to offer
            choices["model"] = dict(arguments)
            labels["model"] = label(asked_value)
        if not choices:
            return False
        turn.asked = True
        labels[CANCEL_OPTION] = llm_replies.cancel_option(turn.language)
        said_text = ", ".join(labels[option] for option in labels if option.startswith("said-")) or None
        prompt = llm_replies.number_question(tool, said_text, label(asked_value), turn.language)
        token = uuid.uuid5(uuid.NAMESPACE_URL, f"llm-ask:{turn.message_id}:{tool}").hex
        interaction_id = f"{ASK_PREFIX}.{turn.language}.{token}"
        self._asks.put(interaction_id, Ask(turn.conversation_id, tool, choices, labels, turn.language))
        self._open_asks[turn.conversation_id] = interaction_id
        with contextlib.suppress(*SEND_ERRORS):  # lost with the connection: the person may ask again
            await self.protocol.send(
                {
                    "type": "interaction.request",
                    "conversation_id": turn.conversation_id,
                    "interaction_id": interaction_id,
                    "kind": "choice",
                    "prompt": prompt,
                    "options": [{"id": option, "label": text[:200]} for option, text in labels.items()],
                    "timeout_seconds": ASK_TIMEOUT_SECONDS,
                }
            )
        self._history(turn.conversation_id).note(prompt)
        return True

    async def _withdraw_ask(self, conversation_id: str) -> None:
        interaction_id = self._open_asks.pop(conversation_id, None)
        if interaction_id is not None and self._asks.pop(interaction_id) is not None:
            await self.protocol.send(
                {"type": "interaction.withdraw", "conversation_id": conversation_id, "interaction_id": interaction_id}
            )

    async def _on_answer(self, frame: dict[str, Any], ask: Ask) -> None:
        """The person chose: make the call with the arguments they chose, or nothing."""
        if self._open_asks.get(ask.conversation_id) == frame["interaction_id"]:
            del self._open_asks[ask.conversation_id]
        if frame["status"] != "answered":
            return  # dismissed, timed out, superseded: nothing is done
        choice = frame.get("value")
        arguments = ask.choices.get(choice) if isinstance(choice, str) else None
        if arguments is None:
            await self.protocol.say(ask.conversation_id, llm_replies.question_declined(ask.language))
            self._history(ask.conversation_id).note(llm_replies.question_declined(ask.language))
            return
        source_id = call_id(ask.language, f"llm:ask:{frame['interaction_id']}:{choice}", prefix=LLM_CALL_PREFIX)
        self._history(ask.conversation_id).note(f"{ask.labels[choice]}: {ask.tool}")
        with contextlib.suppress(*SEND_ERRORS):
            await self.protocol.withdraw_question(ask.conversation_id)
        with contextlib.suppress(*SEND_ERRORS):  # kept as a pending call: resent after the next welcome
            # Answered by the protocol itself: the start said in the block, the result report later.
            await self.protocol.call(
                ask.conversation_id,
                ask.tool,
                arguments,
                language=ask.language,
                source_tool_call_id=source_id,
                round_=_round_of(self._app_of(ask.conversation_id, ask.tool), ask.tool, arguments, ask.language),
            )

    async def _status_for_model(self, conversation_id: str) -> dict[str, Any]:
        """The status intent's answer, for the model: every running operation, whatever its app — the
        app, its state, its seconds left and its own fields (an activity, a topic) — or none (read with
        ``conversation.state.get``)."""
        answered: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        async def then(state: dict[str, Any]) -> None:
            if not answered.done():
                answered.set_result(state)

        try:
            with contextlib.suppress(*SEND_ERRORS):  # asked again after the next welcome
                await self.protocol.read_state(conversation_id, then)
            state = await asyncio.wait_for(answered, timeout=self.answer_timeout)
        except TimeoutError:
            self.protocol.log("state_unanswered", conversation_id=conversation_id, level="warning")
            return {"error": "unavailable", "detail": "what runs could not be read right now"}
        names = {app.app_id: app.names.get("en") or app.app_id for app in self._apps.get(conversation_id, ())}
        running = [_operation_for_model(op, names) for op in state.get("operations", []) if isinstance(op, dict)]
        if not running:
            return {"running": False}
        return {"running": True, "operations": running}

    async def _tools(self, conversation_id: str) -> ToolSet | None:
        """The conversation's Inventory as tools, fetched (and waited for) when not known yet."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.answer_timeout
        while conversation_id not in self._tool_sets:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return None
            arrived = self._inventory_arrived
            if self._connected.is_set():
                with contextlib.suppress(*SEND_ERRORS):  # asked again on the next pass
                    await self.protocol.request_inventory(conversation_id)
            # Wakes on an inventory, else re-checks every second (a reconnect clears the request).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(arrived.wait(), timeout=min(remaining, 1.0))
        return self._tool_sets[conversation_id]

    async def _say_soon(self, conversation_id: str, text: str, *, app_session_id: str | None = None) -> None:
        """``message.send`` now, or after a reconnect (waiting up to ``answer_timeout``); dropped and logged after.

        A turn outlives connections (a model answer can take a minute), so unlike the read loop's
        own replies its messages may find the connection gone.
        """
        for _ in range(2):
            next_welcome = self._next_welcome
            try:
                await asyncio.wait_for(self._connected.wait(), timeout=self.answer_timeout)
                await self.protocol.say(conversation_id, text, app_session_id=app_session_id)
                return
            except TimeoutError:
                break
            except SEND_ERRORS:  # lost mid-send: once more on the next connection
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(next_welcome.wait(), timeout=self.answer_timeout)
        self.protocol.log("message_dropped", level="warning", conversation_id=conversation_id)


def _round_of(app: DeclaredApp | None, tool: str, arguments: dict[str, Any], language: Language) -> Round | None:
    """The round a start call asks for, by its app's declaration: the tool it declares ``start``, with
    a whole number of seconds in the argument it declares ``duration`` (and the ``activity`` one, if
    any, to name the result report). None otherwise: the Router says what is wrong with a call."""
    if app is None or tool != app.tools.get("start"):
        return None
    seconds = arguments.get(app.arguments.get("duration", ""))
    activity = arguments.get(app.arguments.get("activity", ""))
    if type(seconds) is not int or seconds < 1:
        return None
    return Round(seconds, activity if isinstance(activity, str) and activity else None, language)


def _started_words(app: DeclaredApp | None, tool: str, round_: Round | None, language: Language) -> str:
    """A confirmed start as the person reads it: the app's declared ``started`` words (the Agent's
    generic ones when it declares none), the tool's name for an app with no declaration."""
    if app is None:
        return llm_replies.started(tool, language)
    duration = replies.duration_text(round_.duration_seconds, language) if round_ is not None else ""
    activity = round_.activity if round_ is not None else None
    return declared.reply(app, "started", language, duration=duration, activity=activity)


def _is_stop_tool(app: DeclaredApp | None, tool: str) -> bool:
    """The tool stops an operation: its app declares it ``stop``; for an app with no declaration, the
    Runtime's naming of a stop (``<app>.interrupt`` / ``<app>.stop``)."""
    if app is not None and app.tools:
        return tool == app.tools.get("stop")
    return tool.endswith((".interrupt", ".stop"))


# What every operation carries (ids, times, policy): left out of the status, or said otherwise.
_RUNTIME_FIELDS = frozenset(
    {"operation_id", "instance_id", "app_session_id", "app_id", "started_at", "ends_at", "ended_at", "ends_when_left"}
)


def _operation_for_model(operation: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """One running operation as the model is told of it: its app, tool, state, seconds left (none
    without a deadline) and the app's own projected fields (an activity, a topic)."""
    app_id = str(operation.get("app_id") or str(operation.get("tool", "")).split(".", 1)[0])
    told: dict[str, Any] = {"app": names.get(app_id, app_id)}
    told.update({k: v for k, v in operation.items() if k not in _RUNTIME_FIELDS and v is not None})
    ends_at = operation.get("ends_at")
    if isinstance(ends_at, str) and ends_at:
        told["ends_at"] = ends_at
        told["seconds_left"] = max(0, round((datetime.fromisoformat(ends_at) - datetime.now(UTC)).total_seconds()))
    return told
