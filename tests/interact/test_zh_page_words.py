# ruff: noqa: RUF002 -- Chinese text uses full-width punctuation on purpose
"""Every word the workspace page can show in zh-Hans is Chinese (issue 40).

The page's words are its JavaScript catalog (``djangojs.po``: every string of static/workspace/,
the Agent's role name and the interruption reasons included) and the template strings of the
workspace pages. Allowed in Latin letters: the product name, and the names of what people type
(placeholders). Punctuation next to Chinese is the full-width kind ("吗？", not "吗?").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES"
# The workspace page (the Agents page names programs and protocols, and is not swept).
PAGE_SOURCES = (
    "static/workspace/",
    "templates/workspace/workspace.html",
    "templates/workspace/base.html",
    "templates/workspace/language_switch.html",
    "interact/views.py",
)
ALLOWED = re.compile(
    r"<code>.*?</code>|%\(\w+\)[sd]|\{\w+\}|LineUp|English|MCP|URL|WebSocket|hello|docs/[\w./-]+|Claude( Desktop| Code)?|JSON"
)
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
HALF_WIDTH_AFTER_CJK = re.compile(r"[\u4e00-\u9fff][?!,;:]")


def entries(path: Path) -> list[tuple[list[str], str, str]]:
    """(source locations, msgid, msgstr) of each entry (plural forms joined)."""

    def text(lines: list[str]) -> str:
        return (
            "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', "\n".join(lines)))
            .encode()
            .decode("unicode_escape")
            .encode("latin-1")
            .decode("utf-8")
        )

    found = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = block.splitlines()
        where = [loc for line in lines if line.startswith("#: ") for loc in line[3:].split()]
        ids = [line for line in lines if line.startswith(("msgid ", '"')) and not line.startswith("msgstr")]
        msgid_lines, msgstr_lines, current = [], [], None
        for line in lines:
            if line.startswith("msgid "):
                current = msgid_lines
            elif line.startswith("msgstr") or line.startswith("msgid_plural"):
                current = msgstr_lines if line.startswith("msgstr") else None
            elif not line.startswith('"'):
                current = None
            if current is not None:
                current.append(line)
        if ids and msgid_lines and text(msgid_lines):
            found.append((where, text(msgid_lines), text(msgstr_lines)))
    return found


def page_entries() -> list[tuple[str, str]]:
    shown = [(msgid, msgstr) for _, msgid, msgstr in entries(CATALOGS / "djangojs.po")]
    shown += [
        (msgid, msgstr)
        for where, msgid, msgstr in entries(CATALOGS / "django.po")
        if any(loc.startswith(PAGE_SOURCES) for loc in where)
    ]
    return shown


def test_the_sweep_reads_the_pages_words():
    """The sweep is not empty: it holds the Agent's role name and the interruption reasons."""
    shown = dict(page_entries())
    assert len(shown) > 120
    assert shown["Agent"] == "助手"
    assert shown["the Agent stopped it"] and shown["the service's operator stopped it"]


@pytest.mark.parametrize("msgid,msgstr", page_entries(), ids=lambda value: value[:40])
def test_every_word_of_the_zh_page_is_chinese_with_full_width_punctuation(msgid: str, msgstr: str):
    rest = ALLOWED.sub("", msgstr)
    assert not LATIN_WORD.search(rest), f"English left in {msgstr!r} (for {msgid!r})"
    assert not HALF_WIDTH_AFTER_CJK.search(msgstr), f"half-width punctuation in {msgstr!r}"
