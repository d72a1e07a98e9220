"""Signal receivers of the Runtime, connected in ``RuntimeConfig.ready``.

A user is deactivated wherever ``is_active = False`` is saved (the admin's user form, a shell, a
management command), so the Runtime hears of it from the user model's ``post_save`` rather than
from each place that can do it. ``QuerySet.update`` sends no signal: the Agent socket also
re-checks the token's user on every frame and redelivery round (lineup/gateways/agent_socket/consumer.py).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from runtime.services.agents import end_agents_of_user


def user_saved(sender: type, instance: Any, raw: bool = False, update_fields: Any = None, **kwargs: Any) -> None:
    """An inactive user was saved: end their Agents' connections and pending interactions."""
    if raw or instance.is_active:  # loading fixtures, or nothing to end
        return
    if update_fields is not None and "is_active" not in update_fields:  # e.g. last_login alone
        return
    end_agents_of_user(user=instance, now=timezone.now())
