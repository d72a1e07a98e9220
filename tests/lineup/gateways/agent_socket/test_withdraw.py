"""``interaction.withdraw`` over a real WebSocket: an Agent takes back its own pending question."""

from __future__ import annotations

import pytest

from interact.models import Interaction, InteractionStatus


def _ask(sock, conversation_id: str, interaction_id: str) -> None:
    pending = sock.request(
        {
            "type": "interaction.request",
            "conversation_id": conversation_id,
            "interaction_id": interaction_id,
            "kind": "confirm",
            "prompt": "Start another 25-minute round?",
        }
    )
    assert pending["status"] == "pending", pending


def _withdraw(sock, conversation_id: str, interaction_id: str) -> dict:
    return sock.request(
        {"type": "interaction.withdraw", "conversation_id": conversation_id, "interaction_id": interaction_id}
    )


@pytest.mark.spec("R-2.1.1", "R-4.3.4")
def test_a_withdrawn_question_is_superseded_once_and_reported_to_its_agent(live, connect, token, conversation):
    """interaction.withdraw -> interaction.withdrawn (superseded) then interaction.resolved superseded; a second
    withdraw changes nothing; an answered question stays answered; an unknown id is refused forbidden."""
    conversation_id = str(conversation.id)
    sock = connect()
    sock.hello(token)
    _ask(sock, conversation_id, "again.en.1500.x1")

    withdrawn = _withdraw(sock, conversation_id, "again.en.1500.x1")
    assert withdrawn == {
        "type": "interaction.withdrawn",
        "conversation_id": conversation_id,
        "interaction_id": "again.en.1500.x1",
        "status": "superseded",
    }
    resolved = sock.push("interaction.resolved", interaction_id="again.en.1500.x1")
    assert (resolved["status"], resolved["value"]) == ("superseded", None)
    row = Interaction.objects.get(conversation=conversation, interaction_id="again.en.1500.x1")
    assert row.status == InteractionStatus.SUPERSEDED

    again = _withdraw(sock, conversation_id, "again.en.1500.x1")
    assert again["status"] == "superseded"
    assert Interaction.objects.get(pk=row.pk).resolved_at == row.resolved_at  # resolved once

    refused = _withdraw(sock, conversation_id, "never-asked")
    assert (refused["type"], refused["code"], refused.get("interaction_id")) == ("error", "forbidden", "never-asked")
