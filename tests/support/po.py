"""A small reader for gettext ``.po`` catalogs: enough to check them, no dependency.

Handles what ``makemessages`` writes: comments (``#:``, ``#.``, ``#,`` flags), ``msgctxt``,
``msgid`` / ``msgid_plural``, ``msgstr`` / ``msgstr[n]`` and strings continued over several lines.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")\s*$")


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: str = ""
    msgstr_plural: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    comments: list[str] = field(default_factory=list)
    obsolete: bool = False

    @property
    def translations(self) -> list[str]:
        return list(self.msgstr_plural.values()) if self.msgid_plural is not None else [self.msgstr]

    @property
    def translated(self) -> bool:
        return "fuzzy" not in self.flags and bool(self.translations) and all(self.translations)


def _unquote(literal: str) -> str:
    return ast.literal_eval(literal)


def parse_po(text: str) -> list[Entry]:
    """Every entry of the catalog, the header (msgid "") included, in file order."""
    entries: list[Entry] = []
    current = Entry()
    last: tuple[str, int | None] | None = None
    seen_keyword = False

    def finish() -> None:
        nonlocal current, seen_keyword, last
        if seen_keyword:
            entries.append(current)
        current, seen_keyword, last = Entry(), False, None

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            current.obsolete = True
            line = line[2:].strip()
            if not line:
                continue
        elif line.startswith("#"):
            if seen_keyword:
                finish()
            if line.startswith("#,"):
                current.flags.update(flag.strip() for flag in line[2:].split(","))
            current.comments.append(raw)
            continue
        match = _KEYWORD.match(line)
        if match:
            keyword, index, literal = match.groups()
            if keyword == "msgctxt" and seen_keyword:
                finish()
            seen_keyword = True
            value = _unquote(literal)
            if keyword.startswith("msgstr["):
                current.msgstr_plural[int(index)] = value
                last = ("msgstr_plural", int(index))
            else:
                setattr(current, keyword, value)
                last = (keyword, None)
            continue
        if line.startswith('"') and last is not None:
            name, index = last
            if name == "msgstr_plural":
                current.msgstr_plural[index] += _unquote(line)
            else:
                setattr(current, name, getattr(current, name) + _unquote(line))
            continue
        raise ValueError(f"not a .po line: {raw!r}")
    finish()
    return entries
