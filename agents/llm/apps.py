# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：“”) on purpose
"""The installed apps as the LLM Agent tells of them, from the Inventory's ``apps`` (pure, no I/O).

The Runtime publishes beside the tools each app that has a tool in the conversation's scope, with
the declaration its package makes (``phrasings.json``, docs/decisions/0050): its name and what it
can do (``help``) in English and Chinese. The reference Agent's parser reads it
(``agents.reference.declared.apps_from_inventory``, used here as it is); an app that declares no
phrasings is still named, by its manifest's name. Nothing here is the Agent's own knowledge of an
app: a MiniApp made by ``startminiapp`` is listed like Pomodoro.

What the list is used for:

- ``instructions(apps, language)``: one line per app in the person's language, in the model's
  system prompt, so it knows what exists (``brief``: names only, when the context is too small for
  what they can do — see ``LLMAgent._complete``);
- ``help_reply(apps, language)``: the answer to "help" / "帮助", given by the Agent itself, with or
  without a model (docs/decisions/0058);
- ``names_line(apps, language)``: the installed apps named, after "nothing was done" and "the model
  failed", so the person learns what they can ask for in either case.

Which apps there are never decides which calls are made: a call is made only for a tool of the
Inventory (``ToolSet.tool_for``), whatever the list says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.reference import replies
from agents.reference.declared import apps_from_inventory
from agents.reference.intents import Language

__all__ = ["InstalledApp", "help_reply", "installed_apps", "instructions", "names_line"]

# Cut at this many characters: a line of what an app can do, in the model's instructions.
MAX_HELP_CHARS = 300


@dataclass(frozen=True)
class InstalledApp:
    """One app of the Inventory: its name and what it can do, per language ("" when it declares none)."""

    app_id: str
    names: dict[Language, str]
    help: dict[Language, str]

    def name(self, language: Language) -> str:
        return self.names.get(language) or self.app_id


def installed_apps(frame: dict[str, Any]) -> tuple[InstalledApp, ...]:
    """The apps of an ``inventory`` frame with a tool in it, in its order: declared ones as they
    declare themselves, the others by their manifest's name."""
    declared = {app.app_id: app for app in apps_from_inventory(frame)}
    # An app is told of only with a tool of this Inventory (the Runtime lists no other; a frame that
    # did would not make the model believe in an app it can not use).
    with_tools = {
        tool.get("app_id") or str(tool.get("name", "")).split(".", 1)[0]
        for tool in frame.get("tools") or []
        if isinstance(tool, dict)
    }
    found: list[InstalledApp] = []
    for entry in frame.get("apps") or []:
        app_id = entry.get("app_id") if isinstance(entry, dict) else None
        if not isinstance(app_id, str) or app_id not in with_tools:
            continue
        if app_id in declared:
            app = declared[app_id]
            found.append(InstalledApp(app_id, dict(app.names), {k: _one_line(v) for k, v in app.help.items()}))
        else:
            name = entry.get("name") if isinstance(entry.get("name"), str) and entry.get("name") else app_id
            found.append(InstalledApp(app_id, {"en": name, "zh": name}, {"en": "", "zh": ""}))
    return tuple(found)


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_HELP_CHARS else text[: MAX_HELP_CHARS - 1].rstrip() + "…"


INSTRUCTIONS_HEAD = " The apps installed here (use them only through the tools; nothing else is installed):"
INSTRUCTIONS_HEAD_BRIEF = " The apps installed here (use them only through the tools):"


def instructions(apps: tuple[InstalledApp, ...], language: Language, *, brief: bool = False) -> str:
    """The system prompt's lines about ``apps``, in ``language``: "- name: what it can do" each ("" for none)."""
    if not apps:
        return ""
    if brief:
        separator = "、" if language == "zh" else ", "
        return INSTRUCTIONS_HEAD_BRIEF + " " + separator.join(app.name(language) for app in apps) + "."
    lines = []
    for app in apps:
        can = app.help.get(language, "")
        colon = "：" if language == "zh" else ": "
        lines.append(f"- {app.name(language)}{colon}{can}" if can else f"- {app.name(language)}")
    return INSTRUCTIONS_HEAD + "\n" + "\n".join(lines) + "\n"


def help_reply(apps: tuple[InstalledApp, ...], language: Language) -> str | None:
    """The answer to "help": one line per app as it says what it does (the reference Agent's words);
    None when no app says what it does."""
    listed = [(app.name(language), app.help.get(language, "")) for app in apps]
    if not any(can for _, can in listed):
        return None
    return replies.help_text(language, topic="help", apps=listed)


def names_line(apps: tuple[InstalledApp, ...], language: Language) -> str:
    """ "Installed here: …" with a pointer to "help" ("" when none is known)."""
    if not apps:
        return ""
    if language == "zh":
        return "这里安装了：" + "、".join(app.name(language) for app in apps) + "。说“帮助”看看它们能做什么。"
    return " Installed here: " + ", ".join(app.name(language) for app in apps) + ". Say “help” to see what they do."
