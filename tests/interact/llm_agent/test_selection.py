"""interact.llm_agent.selection: the LLM Agent only when both the base URL and the model are set."""

from __future__ import annotations

import functools

from interact.llm_agent.agent import LLMAgent
from interact.llm_agent.config import LLMConfig
from interact.llm_agent.selection import builtin_agent
from interact.reference_agent.agent import ReferenceAgent
from interact.reference_agent.recall import activity_of_operation, person_language, running_focus


def configure(settings, base_url: str = "", model: str = "", key: str = "") -> None:
    settings.LINEUP_LLM_BASE_URL, settings.LINEUP_LLM_MODEL, settings.LINEUP_LLM_API_KEY = base_url, model, key


def test_without_a_model_server_the_reference_agent_runs(settings):
    configure(settings)
    chosen = builtin_agent()
    assert chosen.name == "reference" and chosen.factory.func is ReferenceAgent
    # It reads a result's activity back from the operation when it did not remember the call, the
    # running focus for "how long is left?", and the person's language.
    assert chosen.factory.keywords == {
        "recall_activity": activity_of_operation,
        "recall_focus": running_focus,
        "recall_language": person_language,
    }
    configure(settings, base_url="http://127.0.0.1:11434/v1")  # half configured: still the reference Agent
    chosen = builtin_agent()
    assert chosen.name == "reference" and chosen.factory.func is ReferenceAgent


def test_with_base_url_and_model_the_llm_agent_runs_with_them(settings):
    configure(settings, base_url="http://127.0.0.1:11434/v1", model="qwen3:4b", key="sk-secret")
    settings.LINEUP_LLM_TIMEOUT_SECONDS, settings.LINEUP_LLM_MAX_RETRIES = 12.5, 1
    chosen = builtin_agent()
    assert chosen.name == "llm"
    assert isinstance(chosen.factory, functools.partial) and chosen.factory.func is LLMAgent
    config = chosen.factory.keywords["config"]
    assert chosen.factory.keywords["recall_activity"] is activity_of_operation
    assert chosen.factory.keywords["recall_language"] is person_language
    assert config == LLMConfig("http://127.0.0.1:11434/v1", "qwen3:4b", "sk-secret", 12.5, 1)
    assert "sk-secret" not in repr(config)
