"""Token digests this process has refused as no Agent's: asked of the database once, then not again.

A stranger who offers a made-up token at ``/mcp/`` or ``/ws/agent/`` cost a database-thread hop and a
query for every attempt; a fresh random token per attempt made that a free way to load the database
for everyone (issue 38). Refused here are the digests that have no token row, or only a revoked one:
a revoked token never authenticates again (re-enabling the built-in Agent draws a new salt, so a new
token), so the only way such a digest becomes good is a new token row with it, and the services that
create one call ``forget`` (on commit). A token whose user is inactive is *not* remembered: the user
may be activated again.

Bounded (``MAX_ENTRIES``, oldest out first) and per process, each entry for ``TTL_SECONDS``: another
process that creates a token can not reach this memory, and the TTL bounds how long it could be
wrong — only for a digest offered *before* its token existed, which for a drawn token means guessing
256 random bits (docs/decisions/0045-strangers-at-the-agent-doors.md).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

MAX_ENTRIES = 50_000  # ~6 MB of 64-character digests at most
TTL_SECONDS = 600.0

_refused: OrderedDict[str, float] = OrderedDict()  # digest -> when it stops counting (monotonic)
_lock = threading.Lock()  # written from database threads, read on the event loop


def is_refused(digest: str) -> bool:
    """True when ``digest`` was found to be no Agent's token within the TTL (no database)."""
    with _lock:
        until = _refused.get(digest)
        if until is None:
            return False
        if until <= time.monotonic():
            del _refused[digest]
            return False
        return True


def remember(digest: str) -> None:
    with _lock:
        _refused[digest] = time.monotonic() + TTL_SECONDS
        _refused.move_to_end(digest)
        while len(_refused) > MAX_ENTRIES:
            _refused.popitem(last=False)


def forget(digest: str) -> None:
    """A token with this digest now exists: it is no longer refused here."""
    with _lock:
        _refused.pop(digest, None)


def clear() -> None:
    with _lock:
        _refused.clear()
