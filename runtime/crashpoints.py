"""Crash points: kill this process at the k-th step of one named decision (tests and bench only).

The crash-point harness (``tests/reliability/test_crashpoints.py``, ``python -m bench.crashpoints``)
starts a server or worker process with ``LINEUP_CRASH_AT=<decision>:<k>`` and
``LINEUP_CRASH_TRACE=<file>``. In that process the *first* run of ``<decision>`` counts its steps:

* every SQL statement it executes (``before-sql``: the process dies before the statement is sent),
* ``before-commit``: every statement ran, the transaction is still open,
* ``after-commit``: committed, before any after-commit work (hints, eta publishes, answers),
* ``after-last-statement`` instead of the two above for a step that runs outside a transaction
  (a delivery round, an ack: each statement commits by itself),

and, after it committed, the first of each of these in the process:

* ``after-publish``: a channel-layer send or broker publish handed on by a commit,
* ``after-write``: a frame written to a WebSocket.

Each step is appended to the trace file as it is reached (``k<TAB>label``); at step ``k`` the process
writes ``CRASH`` and ends with ``os._exit`` — no cleanup, no rollback sent, no socket closed:
kill -9 semantics at an exact point. ``k = -1`` only traces (the uncrashed run that counts the steps).
The steps are counted, not listed, so a decision that gains statements gains crash points by itself.

Without ``LINEUP_CRASH_AT`` nothing is installed: ``scope`` returns the function it was given,
``point`` tests one module-level flag.
"""

from __future__ import annotations

import contextvars
import functools
import os
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from runtime.internals.django_db import add_execute_wrapper, in_transaction

P = ParamSpec("P")
R = TypeVar("R")

_spec = os.environ.get("LINEUP_CRASH_AT", "")
ARMED = bool(_spec)
TARGET, _, _k = _spec.partition(":")
CRASH_AT = int(_k or "-1") if ARMED else -1
TRACE = os.environ.get("LINEUP_CRASH_TRACE", "")

_lock = threading.Lock()
_state = {"step": 0, "started": False, "committed": False, "seen": set()}
_inside: contextvars.ContextVar[bool] = contextvars.ContextVar("lineup_crash_scope", default=False)


def _step(label: str) -> None:
    """Reach the next step: trace it, and die here if it is the armed one."""
    with _lock:
        k = _state["step"]
        _state["step"] = k + 1
        crash = k == CRASH_AT
        if TRACE:
            line = f"{k}\t{label}\n" + (f"CRASH\t{k}\t{label}\n" if crash else "")
            fd = os.open(TRACE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, line.encode())
            finally:
                os.close(fd)
    if crash:
        os._exit(137)


def _execute(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    if _inside.get():
        _step("before-sql " + " ".join(sql.split()[:4])[:80])
    return execute(sql, params, many, context)


def _install(sender: Any = None, connection: Any = None, **_: Any) -> None:
    if connection is not None:
        add_execute_wrapper(connection, _execute)


def install() -> None:
    """Wrap every database connection of this process (from ``RuntimeConfig.ready``; armed only)."""
    if not ARMED:
        return
    from django.db.backends.signals import connection_created

    connection_created.connect(_install, dispatch_uid="lineup.crashpoints")


def scope(name: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark ``name``'s steps: applied inside ``@decision``'s transaction (or around a non-transactional
    step such as a delivery round). Unarmed, or armed for another decision, it changes nothing."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        if not ARMED or name != TARGET:
            return function

        @functools.wraps(function)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            with _lock:
                first = not _state["started"]
                _state["started"] = True
            if not first:  # only the first run of the decision in this process is counted
                return function(*args, **kwargs)
            from django.db import connection, transaction

            transactional = in_transaction(connection)
            if transactional:
                # Registered first, so it runs right after COMMIT, before every other on-commit hook.
                transaction.on_commit(_committed)
            token = _inside.set(True)
            try:
                result = function(*args, **kwargs)
            finally:
                _inside.reset(token)
            _step("before-commit" if transactional else "after-last-statement")
            if not transactional:
                _state["committed"] = True
            return result

        return wrapper

    return decorate


def _committed() -> None:
    _state["committed"] = True
    _step("after-commit")


def point(label: str) -> None:
    """A named step after the commit (``after-publish``, ``after-write``): counted once per process,
    the first time it is reached after the armed decision committed."""
    if not ARMED or not _state["committed"]:
        return
    with _lock:
        if label in _state["seen"]:
            return
        _state["seen"].add(label)
    _step(label)
