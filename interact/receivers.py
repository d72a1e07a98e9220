"""Interact's part in Runtime decisions, subscribed in ``InteractConfig.ready`` (runtime.extensions).

The Runtime can not import Interact, so it announces; Interact answers:

* an Agent ended (last token revoked, user deactivated): its pending interactions are failed in the
  same transaction, so nothing waits for an answer nobody can hear;
* an Agent created: it is given the person's recent unanswered messages (a new user's first words
  may be written before their built-in Agent exists);
* the periodic sweep: expired interactions are timed out.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from interact.services.interactions import expire_due_interactions, fail_pending_interactions_of_agent
from interact.services.messages import deliver_unanswered_messages
from runtime.extensions import agent_created, agent_ended, register_sweeper

INTERACTIONS_TIMED_OUT = "interactions_timed_out"


def agent_ended_receiver(sender: type, agent: Any, reason: str, now: datetime, **kwargs: Any) -> int:
    return fail_pending_interactions_of_agent(agent=agent, reason=reason, now=now)


def agent_created_receiver(sender: type, agent: Any, now: datetime, **kwargs: Any) -> int:
    return deliver_unanswered_messages(agent=agent, now=now)


def expire_interactions(now: datetime) -> int:
    return expire_due_interactions(now=now)


def connect() -> None:
    agent_ended.connect(agent_ended_receiver, dispatch_uid="lineup.interact.agent_ended")
    agent_created.connect(agent_created_receiver, dispatch_uid="lineup.interact.agent_created")
    register_sweeper(INTERACTIONS_TIMED_OUT, expire_interactions)
