"""Where the LLM Agent's model is, read from the settings (``LINEUP_LLM_*``) when asked, not at import."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings


@dataclass(frozen=True)
class LLMConfig:
    base_url: str  # the API base, up to and including /v1 (the SDK appends /chat/completions)
    model: str
    api_key: str = ""  # empty: a local server that wants none
    timeout_seconds: float = 60.0
    max_retries: int = 2

    def __repr__(self) -> str:  # never log the key
        return (
            f"LLMConfig(base_url={self.base_url!r}, model={self.model!r}, api_key={'set' if self.api_key else 'none'})"
        )


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
    )
