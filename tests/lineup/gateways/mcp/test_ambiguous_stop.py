"""An ambiguous stop over MCP: the ``isError`` result lists the candidates, valid against the
rejection schema every tool's ``outputSchema`` carries (decision 0041). The router's side (which
operations, in which order) is tested in tests/runtime/services/test_app_policies.py."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from lineup.gateways.mcp.bridge import CallAnswer
from lineup.gateways.mcp.schemas import REJECTION_SCHEMA
from lineup.gateways.mcp.server import _call_result
from runtime.errors import RejectionCode
from runtime.tool_calls import Rejected

CANDIDATES = [
    {"operation_id": "a1", "app_id": "probe", "started_at": "2026-01-05T09:00:00.000Z", "label": "乘法"},
    {"operation_id": "b2", "app_id": "probe", "started_at": "2026-01-05T09:00:01.000Z", "label": "Probe"},
]


@pytest.mark.spec("R-3.6")
def test_an_ambiguous_stop_lists_its_candidates_in_the_error_result():
    rejected = Rejected("c-1", RejectionCode.AMBIGUOUS_OPERATION, "2 operations of this app are running", CANDIDATES)
    result = _call_result(CallAnswer(source_tool_call_id="c-1", outcome=rejected))
    assert result.is_error
    assert result.structured_content == {
        "code": "ambiguous_operation",
        "detail": "2 operations of this app are running",
        "candidates": CANDIDATES,
    }
    Draft202012Validator(REJECTION_SCHEMA).validate(result.structured_content)


@pytest.mark.spec("R-3.11")
def test_any_other_rejection_has_no_candidates():
    rejected = Rejected("c-2", RejectionCode.UNKNOWN_OPERATION, "no probe operation 'x' in this conversation")
    result = _call_result(CallAnswer(source_tool_call_id="c-2", outcome=rejected))
    assert result.structured_content == {"code": "unknown_operation", "detail": rejected.detail}
    Draft202012Validator(REJECTION_SCHEMA).validate(result.structured_content)
