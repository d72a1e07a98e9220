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

from agents.common.client import AgentFactory
from agents.llm.agent import LLMAgent
from agents.llm.config import LLMConfig
from agents.reference.agent import ReferenceAgent

logger = structlog.get_logger("lineup.reference_agent")

REFERENCE_AGENT_NAME = "reference"
LLM_AGENT_NAME = "llm"


@dataclass(frozen=True)
class BuiltinAgent:
    name: str  # the Agent its tokens are issued for (admin: Agents)
    factory: AgentFactory  # what AgentClient feeds the frames to


def llm_config() -> LLMConfig | None:
    """The configured model server, or None unless both ``LINEUP_LLM_BASE_URL`` and ``LINEUP_LLM_MODEL`` are set."""
    if not (settings.LINEUP_LLM_BASE_URL and settings.LINEUP_LLM_MODEL):
        return None
    return LLMConfig(
        base_url=settings.LINEUP_LLM_BASE_URL,
        model=settings.LINEUP_LLM_MODEL,
        api_key=settings.LINEUP_LLM_API_KEY,
        timeout_seconds=settings.LINEUP_LLM_TIMEOUT_SECONDS,
        max_retries=settings.LINEUP_LLM_MAX_RETRIES,
        context_tokens=settings.LINEUP_LLM_CONTEXT_TOKENS,
    )


def builtin_agent() -> BuiltinAgent:
    """The LLM Agent if ``LINEUP_LLM_BASE_URL`` and ``LINEUP_LLM_MODEL`` are set, the reference Agent otherwise."""
    config = llm_config()
    if config is None:
        if settings.LINEUP_LLM_BASE_URL or settings.LINEUP_LLM_MODEL:
            logger.warning("builtin_agent.llm_incomplete", detail="set both LINEUP_LLM_BASE_URL and LINEUP_LLM_MODEL")
        logger.info("builtin_agent.selected", kind="reference", reason="LINEUP_LLM_BASE_URL / LINEUP_LLM_MODEL not set")
        return BuiltinAgent(REFERENCE_AGENT_NAME, ReferenceAgent)
    logger.info(
        "builtin_agent.selected",
        kind="llm",
        base_url=config.base_url,
        model=config.model,
        api_key="set" if config.api_key else "none",
    )
    return BuiltinAgent(LLM_AGENT_NAME, functools.partial(LLMAgent, config=config))
