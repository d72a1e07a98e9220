"""Strangers at the Agent doors (``/mcp/``, ``/ws/agent/`` hellos): refused before they cost the database.

A credential is checked against the database once; what is known to be no Agent's token is refused
from memory after that (``runtime.refused_tokens``, through ``is_token_refused``). What is left is a
stranger offering a token this process has not seen: each such look-up draws on two budgets, per
process, before it may reach the database:

* per client address (``LINEUP_STRANGER_LOOKUPS_PER_SECOND_PER_ADDRESS``, a burst of
  ``BURST_SECONDS`` worth), the address being what ``LINEUP_TRUSTED_PROXY_HOPS`` lets us believe;
* for everyone together (``LINEUP_STRANGER_LOOKUPS_PER_SECOND``): behind a proxy that is not
  trusted, or in the embedded default, every client shares one address, and a flood of fresh random
  tokens from many addresses is one flood for the database all the same.

A token that authenticated in this process lately (``trust``) draws on neither: it is an Agent's,
so its requests are under the per-token and per-person fair share instead, and an attack on the
budgets does not lock out the Agents that are already working. A new Agent arriving during such an
attack may be told 429 and retries after ``Retry-After``.

Every refusal of a stranger — 401 (unknown) or 429 (over a budget) — is answered late, like the
fair share's 429s: after a second, and later while many refusals for the same address wait, so that
an address's refusals leave at ``REFUSALS_PER_SECOND`` at most and a client retrying at once costs a
sleeping coroutine, not a busy core. Each is counted in ``lineup_rate_limit_refusals_total``
(``<door>_unauthenticated``); only look-ups that reached the database are logged.
Why this shape: docs/decisions/0045-strangers-at-the-agent-doors.md.
"""

from __future__ import annotations

import time
from collections import Counter, OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings

from runtime.services.agents import is_token_refused, token_digest

UNAUTHORIZED = "unauthorized"
BUSY = "busy"
BURST_SECONDS = 5
REFUSALS_PER_SECOND = 10  # per address whose refusals are waiting
RETRY_AFTER_SECONDS = 1
TRUSTED_SECONDS = 600.0
MAX_TRUSTED = 10_000
_MAX_PACED = 20_000  # addresses whose budget is being tracked; over this, expired ones are pruned
_EVERYONE = "*"

_trusted: OrderedDict[str, float] = OrderedDict()  # digests that authenticated here lately -> until
_next_lookup: dict[str, float] = {}  # per address (and _EVERYONE): the budget's next free time (GCRA)
_waiting: Counter[str] = Counter()  # refusals held before their answer, per address


def check(token: object, address: str) -> str | None:
    """Why this credential is refused without the database (``UNAUTHORIZED``, ``BUSY``), or None:
    look it up. A look-up allowed here has taken its share of the budgets."""
    if is_token_refused(token):
        return UNAUTHORIZED
    digest = token_digest(token)  # type: ignore[arg-type]  # is_token_refused checked it is a str
    until = _trusted.get(digest)
    if until is not None and until > time.monotonic():
        return None
    now = time.monotonic()
    per_address = settings.LINEUP_STRANGER_LOOKUPS_PER_SECOND_PER_ADDRESS
    everyone = settings.LINEUP_STRANGER_LOOKUPS_PER_SECOND
    if not (_allows(address, per_address, now) and _allows(_EVERYONE, everyone, now)):
        return BUSY
    _take(address, per_address, now)
    _take(_EVERYONE, everyone, now)
    return None


def trust(token: str) -> None:
    """``token`` authenticated: its next requests skip the strangers' budgets for a while."""
    digest = token_digest(token)
    _trusted[digest] = time.monotonic() + TRUSTED_SECONDS
    _trusted.move_to_end(digest)
    while len(_trusted) > MAX_TRUSTED:
        _trusted.popitem(last=False)


@contextmanager
def refusal_wait(address: str) -> Iterator[float]:
    """The seconds to hold a stranger's refusal before answering it, counted as waiting meanwhile."""
    _waiting[address] += 1
    try:
        yield max(RETRY_AFTER_SECONDS, _waiting[address] / REFUSALS_PER_SECOND)
    finally:
        _waiting[address] -= 1
        if _waiting[address] <= 0:
            del _waiting[address]


def _allows(key: str, rate: float, now: float) -> bool:
    if rate <= 0:
        return True
    interval = 1.0 / rate
    return _next_lookup.get(key, now) - now <= (BURST_SECONDS * rate - 1) * interval


def _take(key: str, rate: float, now: float) -> None:
    if rate <= 0:
        return
    if len(_next_lookup) > _MAX_PACED:
        for stale in [k for k, t in _next_lookup.items() if t <= now]:
            del _next_lookup[stale]
    _next_lookup[key] = max(_next_lookup.get(key, now), now) + 1.0 / rate


def reset() -> None:
    """Forget every budget and trusted token (tests)."""
    _trusted.clear()
    _next_lookup.clear()
    _waiting.clear()
