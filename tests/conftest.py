"""Shared fixtures. Scenario data is built through the real services (tests/support/factories.py)."""

from __future__ import annotations

import pytest
from django.conf import settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

# Hypothesis budgets: "ci" (the default) is a fixed, derandomized budget that keeps the suite fast;
# "nightly" (``pytest --hypothesis-profile=nightly``) explores far more interleavings.
hypothesis_settings.register_profile(
    "ci",
    max_examples=70,
    stateful_step_count=15,
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis_settings.register_profile(
    "nightly",
    max_examples=3000,
    stateful_step_count=60,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis_settings.load_profile("ci")


def pytest_configure(config: pytest.Config) -> None:
    # Tests drive deadlines themselves unless they ask for Celery (tests/support/processes.py).
    settings.LINEUP_SCHEDULER = "none"
    # Password hashing is not under test and costs ~0.7 s per user with the default hasher.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user(username="ada", password="pw-ada-123")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user(username="bob", password="pw-bob-123")


@pytest.fixture
def conversation(user):
    from runtime.services.conversations import conversation_get_or_create_default

    return conversation_get_or_create_default(user=user)


@pytest.fixture
def caller(user):
    from runtime.tool_router import Caller

    return Caller(label="agent:test", user_id=user.id)


@pytest.fixture
def agent(caller, conversation):
    """An Agent bound to ``conversation`` that calls tools through the real Tool Router."""
    from tests.support.factories import AgentDriver

    return AgentDriver(caller=caller, conversation=conversation)
