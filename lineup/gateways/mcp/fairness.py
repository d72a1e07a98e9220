"""Fair share at ``/mcp/``: what one token (and one person, and everyone together) may have the process do at once.

Four limits, all per server process (decision 0034 says why not across processes), all counted
before the request costs anything else:

* in flight per token (``LINEUP_MCP_IN_FLIGHT_PER_TOKEN``): counted from before admission, so the
  token's own database check is inside it; the digest needs no database;
* in flight per person, whichever of their tokens (``LINEUP_MCP_IN_FLIGHT_PER_USER``): counted once
  admission has named the person (anyone can make tokens on the Agents page);
* a pace per token (``LINEUP_MCP_REQUESTS_PER_SECOND_PER_TOKEN``, a burst of four seconds' worth): a request
  over it waits its turn inside its in-flight slot (a sleeping coroutine, nothing more) instead of
  being refused, so a client in a loop runs at the pace and no faster;
* requests that may be held open, over all tokens and people (``LINEUP_MCP_HELD_PER_PROCESS``):
  ``tasks/result`` waits until its focus ends, so the caps above bound what one person holds but
  not what many people hold together; each held request keeps a connection (a file descriptor) and
  a coroutine, and the process has a limited number of both. Counted once admission has named the
  method, from then until the answer (one that turns out final at once is counted for a moment).

A request over a cap is refused 429 with its id and ``Retry-After``, answered only after that
``Retry-After`` — and later still while many refusals of the same token wait, so a token's refusals
leave at ``REFUSALS_PER_SECOND`` at most. A client that retries at once (400 connections in a loop)
would otherwise have the process answer refusals as fast as it can send them, and the refusals
themselves took another user's answers from tens of milliseconds to seconds. The wait holds a
coroutine and the client's connection, no slot and no database.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from asgiref.typing import ASGIReceiveCallable
from django.conf import settings

RETRY_AFTER_SECONDS = 1
BURST_SECONDS = 4  # the pace's burst: this many seconds' worth of requests at once
REFUSALS_PER_SECOND = 10  # per token (or person) whose refusals are waiting
_PRUNE_AT = 1024
HELD_METHODS = frozenset({"tasks/result"})  # the requests answered only when their focus has ended
PROCESS = "process"  # the one key of ``held``

in_flight: Counter[str] = Counter()  # requests per token digest, in this process
in_flight_by_user: Counter[int] = Counter()  # admitted requests per person, in this process
held: Counter[str] = Counter()  # requests that may be held (HELD_METHODS), in this process, under PROCESS
refusals_waiting: Counter[str] = Counter()  # refusals held before their answer, per token / person
_next_start: dict[str, float] = {}  # per token digest: the pace's theoretical arrival time (GCRA)


def token_busy(digest: str) -> int | None:
    """The token's cap when it has that many requests in flight, else None."""
    cap = settings.LINEUP_MCP_IN_FLIGHT_PER_TOKEN
    return cap if in_flight[digest] >= cap else None


def user_busy(user_id: int) -> int | None:
    cap = settings.LINEUP_MCP_IN_FLIGHT_PER_USER
    return cap if in_flight_by_user[user_id] >= cap else None


def process_holding_full() -> int | None:
    """The process's cap of held requests when that many are held, else None."""
    cap = settings.LINEUP_MCP_HELD_PER_PROCESS
    return cap if held[PROCESS] >= cap else None


@contextmanager
def counted(counter: Counter[str] | Counter[int], key: str | int) -> Iterator[None]:
    counter[key] += 1  # type: ignore[index]
    try:
        yield
    finally:
        counter[key] -= 1  # type: ignore[index]
        if counter[key] <= 0:  # type: ignore[index]
            del counter[key]  # type: ignore[arg-type]


async def take_turn(digest: str) -> None:
    """Wait until the token's pace lets its next request start (a generic cell rate: ``rate`` a
    second, a burst of ``BURST_SECONDS`` worth after a quiet spell)."""
    rate = settings.LINEUP_MCP_REQUESTS_PER_SECOND_PER_TOKEN
    if rate <= 0:
        return
    now = time.monotonic()
    if len(_next_start) > _PRUNE_AT:
        for key in [k for k, t in _next_start.items() if t <= now]:
            del _next_start[key]
    interval = 1.0 / rate
    arrival = max(_next_start.get(digest, now), now)
    _next_start[digest] = arrival + interval
    wait = arrival - now - (BURST_SECONDS * rate - 1) * interval
    if wait > 0:
        await asyncio.sleep(wait)


async def answer_later(key: str, receive: ASGIReceiveCallable) -> bool:
    """Hold a refusal before it is answered: its ``Retry-After``, and longer while many of the same
    token's (or person's) refusals wait, so that they are answered at ``REFUSALS_PER_SECOND`` at most
    (400 connections in a loop: each answered after ~40 s, ten refusals a second in all).

    True when the client left meanwhile: there is nothing to answer, and nothing waits on its behalf."""
    with counted(refusals_waiting, key):
        delay = max(RETRY_AFTER_SECONDS, refusals_waiting[key] / REFUSALS_PER_SECOND)
        try:
            async with asyncio.timeout(delay):
                while (await receive())["type"] != "http.disconnect":
                    pass  # the rest of a body nobody will read
        except TimeoutError:
            return False
    return True
