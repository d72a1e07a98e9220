"""ORM work from the launcher's event loop, in worker threads that close their own connections."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import close_old_connections, connections

T = TypeVar("T")


def _with_own_connection(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    close_old_connections()
    try:
        return fn(*args, **kwargs)
    finally:
        connections.close_all()  # this worker thread's connections only


async def run_db(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ORM code from the supervisor's event loop (Django refuses it on the loop itself)."""
    return await asyncio.to_thread(_with_own_connection, fn, *args, **kwargs)
