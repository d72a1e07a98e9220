"""The soak's and the crash harness' stand-in for the workspace page (``bench.soak.Person``)."""

from __future__ import annotations

import pytest

from bench.soak import Person


def test_a_message_without_its_client_message_id_is_never_sent():
    """The stand-in sends a message again after a lost answer, as the page does; only the page's
    ``client_message_id`` makes that store once, so a message without one is refused before any
    connection (the crash case message:7:591210 stored one twice that way, after its commit)."""
    person = Person(1, "sessionid=x", [1])  # port 1: nothing listens; it must not get that far
    with pytest.raises(ValueError, match="client_message_id"):
        person._handle("message.send", {"conversation_id": "c", "text": "hi"})
    assert (person.attempts, person.messages) == (0, [])
