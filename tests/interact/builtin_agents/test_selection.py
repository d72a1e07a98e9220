"""interact.builtin_agents.selection: the LLM Agent only when both the base URL and the model are set."""

from __future__ import annotations

import functools

from agents.llm.agent import LLMAgent
from agents.llm.config import LLMConfig
from agents.reference.agent import ReferenceAgent
from interact.builtin_agents.selection import builtin_agent


def configure(settings, base_url: str = "", model: str = "", key: str = "") -> None:
    settings.LINEUP_LLM_BASE_URL, settings.LINEUP_LLM_MODEL, settings.LINEUP_LLM_API_KEY = base_url, model, key


def test_without_a_model_server_the_reference_agent_runs(settings):
    configure(settings)
    chosen = builtin_agent()
    # A client of /ws/agent/ and nothing else: it reads what runs and the person's language from frames.
    assert chosen.name == "reference" and chosen.factory is ReferenceAgent
    configure(settings, base_url="http://127.0.0.1:11434/v1")  # half configured: still the reference Agent
    chosen = builtin_agent()
    assert chosen.name == "reference" and chosen.factory is ReferenceAgent


def test_with_base_url_and_model_the_llm_agent_runs_with_them(settings):
    configure(settings, base_url="http://127.0.0.1:11434/v1", model="qwen3:4b", key="sk-secret")
    settings.LINEUP_LLM_TIMEOUT_SECONDS, settings.LINEUP_LLM_MAX_RETRIES = 12.5, 1
    settings.LINEUP_LLM_CONTEXT_TOKENS = 2048
    chosen = builtin_agent()
    assert chosen.name == "llm"
    assert isinstance(chosen.factory, functools.partial) and chosen.factory.func is LLMAgent
    config = chosen.factory.keywords["config"]
    assert set(chosen.factory.keywords) == {"config"}
    assert config == LLMConfig("http://127.0.0.1:11434/v1", "qwen3:4b", "sk-secret", 12.5, 1, context_tokens=2048)
    assert "sk-secret" not in repr(config)
