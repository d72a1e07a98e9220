"""``manage.py create_agent_token``: the token alone on the last line of stdout, and the MCP URL of the
user's default conversation before it (stderr), so no shell one-liner is needed to find it."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from runtime.models import AgentToken, Conversation
from runtime.services.agents import token_digest

pytestmark = pytest.mark.django_db


def test_it_prints_the_mcp_url_of_the_default_conversation_and_then_the_token(user):
    out, err = io.StringIO(), io.StringIO()
    call_command(
        "create_agent_token", "claude", "--user", "ada", "--url", "https://lineup.example/", stdout=out, stderr=err
    )
    token = out.getvalue().splitlines()[-1]
    assert AgentToken.objects.get(agent__name="claude").digest == token_digest(token)
    default = Conversation.objects.get(owner=user, is_default=True)
    assert f"MCP URL of the default conversation: https://lineup.example/mcp/{default.id}/" in err.getvalue()
    assert token not in err.getvalue()


@pytest.mark.parametrize("name", ["   ", "x" * 101])
def test_a_blank_or_long_name_is_refused(user, name):
    with pytest.raises(CommandError, match="1 to 100 characters"):
        call_command("create_agent_token", name, "--user", "ada", stdout=io.StringIO(), stderr=io.StringIO())
    assert not AgentToken.objects.exists()
