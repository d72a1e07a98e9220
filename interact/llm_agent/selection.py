"""Which built-in Agent runs: the LLM Agent when a model server is configured, else the reference Agent.

Both are started the same way — by the supervisor inside the embedded server, or by
``manage.py run_reference_agent`` — and both are ordinary clients of ``/ws/agent/``. The choice is
logged once per start (``builtin_agent.selected``) with the reason, never with the key.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import structlog
from django.conf import settings

from interact.llm_agent.config import llm_config
from interact.reference_agent.agent import ReferenceAgent
from interact.reference_agent.client import AgentFactory
from interact.reference_agent.recall import activity_of_operation, person_language, running_focus
from interact.reference_agent.supervisor import REFERENCE_AGENT_NAME

logger = structlog.get_logger("lineup.reference_agent")

LLM_AGENT_NAME = "llm"


@dataclass(frozen=True)
class BuiltinAgent:
    name: str  # the Agent its tokens are issued for (admin: Agents)
    factory: AgentFactory  # what AgentClient feeds the frames to


def builtin_agent() -> BuiltinAgent:
    """The LLM Agent if ``LINEUP_LLM_BASE_URL`` and ``LINEUP_LLM_MODEL`` are set, the reference Agent otherwise."""
    config = llm_config()
    if config is None:
        if settings.LINEUP_LLM_BASE_URL or settings.LINEUP_LLM_MODEL:
            logger.warning("builtin_agent.llm_incomplete", detail="set both LINEUP_LLM_BASE_URL and LINEUP_LLM_MODEL")
        logger.info("builtin_agent.selected", kind="reference", reason="LINEUP_LLM_BASE_URL / LINEUP_LLM_MODEL not set")
        return BuiltinAgent(
            REFERENCE_AGENT_NAME,
            functools.partial(
                ReferenceAgent,
                recall_activity=activity_of_operation,
                recall_focus=running_focus,
                recall_language=person_language,
            ),
        )
    from interact.llm_agent.agent import LLMAgent  # imports the openai SDK: only when it is used

    logger.info(
        "builtin_agent.selected",
        kind="llm",
        base_url=config.base_url,
        model=config.model,
        api_key="set" if config.api_key else "none",
    )
    return BuiltinAgent(
        LLM_AGENT_NAME,
        functools.partial(
            LLMAgent,
            config=config,
            recall_activity=activity_of_operation,
            recall_focus=running_focus,
            recall_language=person_language,
        ),
    )
