"""The Runtime's extension points: how apps above it join its decisions without being imported.

The Runtime is the bottom layer (docs/decisions/0010-layers.md); it must not import Interact, yet
two of its decisions concern Interact's records too. Those apps subscribe here, in their
``AppConfig.ready``:

* ``agent_ended`` — an Agent can no longer act or hear answers (its last token was revoked, or
  its user was deactivated). Sent inside the deciding transaction with ``agent``, ``reason`` and
  ``now``; a receiver does its part in that transaction and returns how many records it ended.
* ``register_sweeper`` — a function ``(now) -> int`` the periodic sweep runs after settling the
  Runtime's own due deadlines (Interact times out its expired interactions this way); the count
  is reported under the sweeper's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from types import MappingProxyType

from django.dispatch import Signal

agent_ended = Signal()
agent_created = Signal()

Sweeper = Callable[[datetime], int]

_sweepers: dict[str, Sweeper] = {}


def register_sweeper(name: str, sweeper: Sweeper) -> None:
    """Add ``sweeper`` to the periodic sweep (registering the same name again replaces it)."""
    _sweepers[name] = sweeper


def sweepers() -> Mapping[str, Sweeper]:
    return MappingProxyType(_sweepers)


def send_agent_ended(*, agent: object, reason: str, now: datetime) -> int:
    """Tell every subscriber that ``agent`` ended; returns the records they ended in all."""
    responses = agent_ended.send(sender=type(agent), agent=agent, reason=reason, now=now)
    return sum(count for _, count in responses if isinstance(count, int))


def send_agent_created(*, agent: object, now: datetime) -> None:
    """Tell every subscriber that ``agent`` was just created (inside the creating transaction)."""
    agent_created.send(sender=type(agent), agent=agent, now=now)
