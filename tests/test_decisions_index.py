"""docs/decisions/ is a record a newcomer can trust: every record is in the index with its status, and
a record that amends or supersedes another is named on that other record too (both directions)."""

from __future__ import annotations

import re
from pathlib import Path

DECISIONS = Path(__file__).resolve().parents[1] / "docs" / "decisions"
STATUS = re.compile(r"^\*\*Status:\*\*\s*(.*)$", re.M)
# How a record's Status line names the older records it changes ("amends 0030, 0031", "completes 0024").
CHANGES = re.compile(r"\b(?:amends|supersedes|updates|completes|replaces|extends)\b([^;)]*)")


def records() -> dict[str, str]:
    """``{number: status line}`` of every record."""
    found = {}
    for path in sorted(DECISIONS.glob("[0-9][0-9][0-9][0-9]-*.md")):
        status = STATUS.search(path.read_text())
        assert status is not None, f"{path.name} has no **Status:** line under its title"
        found[path.name[:4]] = status.group(1).strip()
    return found


def test_every_record_is_in_the_index_with_its_own_status():
    index = (DECISIONS / "README.md").read_text()
    found = re.findall(r"^\| \[(\d{4})\]\([^)]*\) \| .*? \| (.*) \|$", index, re.M)
    numbers = [number for number, _ in found]
    assert numbers == sorted(set(numbers)), "one row per record, in number order"
    assert dict(found) == records()


def test_a_record_that_changes_another_is_named_on_that_other_record():
    statuses = records()
    missing = [
        f"{newer} changes {older}, but {older}'s status does not name {newer}"
        for newer, status in statuses.items()
        for names in CHANGES.findall(status)
        for older in re.findall(r"\b\d{4}\b", names)
        if older in statuses and newer not in statuses[older]
    ]
    assert missing == []
