"""The one writer (runtime.services.row_writes, decisions 0055/0056): its short path for parameters
passes on exactly what the model's field would, and its dialect says only what the engines say
differently."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from django.db import connection

from runtime.models import (
    AppInstance,
    AppSession,
    InstanceSnapshot,
    LifecycleEvent,
    Operation,
    OutboxEntry,
    ToolCall,
    Workspace,
)
from runtime.services.row_writes import Dialect, prep

WRITTEN = (AppInstance, AppSession, InstanceSnapshot, LifecycleEvent, Operation, OutboxEntry, ToolCall, Workspace)
SAMPLES = ("text", "", 0, 7, True, False, None, uuid.uuid4(), {"a": 1}, [1, "x"], datetime(2026, 1, 1, tzinfo=UTC))


@pytest.mark.parametrize("model", WRITTEN, ids=lambda model: model.__name__)
def test_a_parameter_is_what_its_field_would_prepare(model):
    """Every column a decision writes, with values of every kind it is given: ``prep`` (which skips
    the field for values it would pass on unchanged) answers what ``get_db_prep_save`` answers."""
    compared = 0
    for field in model._meta.concrete_fields:
        for sample in SAMPLES:
            try:
                expected = field.get_db_prep_save(sample, connection)
            except Exception:  # a value this field refuses is not a parameter it is given
                continue
            got = prep(field, sample)
            assert _seen(got) == _seen(expected), (model.__name__, field.name, sample)
            compared += 1
    assert compared > len(model._meta.concrete_fields)


def _seen(parameter):
    # psycopg's Jsonb wrapper has no equality of its own: compare what it wraps.
    return type(parameter), getattr(parameter, "obj", parameter)


def test_the_dialect_holds_what_the_engines_say_differently():
    postgres, sqlite = Dialect("postgresql"), Dialect("sqlite")
    assert postgres.lock(of="o", skip_locked=True) == " FOR UPDATE OF o SKIP LOCKED"
    assert postgres.lock() == " FOR UPDATE"
    assert sqlite.lock(of="o", skip_locked=True) == ""  # its IMMEDIATE transaction holds the database
    assert postgres.in_ids("id", [1, 2, 3]) == ("id = ANY(%s)", [[1, 2, 3]])
    assert sqlite.in_ids("id", [1, 2, 3]) == ("id IN (%s, %s, %s)", [1, 2, 3])
    assert sqlite.in_ids("id", []) == ("id IN (NULL)", [])
    assert postgres.in_select("k", "SELECT 1") == "k = ANY(ARRAY(SELECT 1))"
    assert sqlite.in_select("k", "SELECT 1") == "k IN (SELECT 1)"
