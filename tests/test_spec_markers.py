"""docs/spec.md and the ``pytest.mark.spec`` tags agree (no database: the sources are parsed)."""

from __future__ import annotations

from pathlib import Path

from tests.support.spec_markers import NOT_PROVEN, PROVEN_BY, REQUIREMENT, SPEC, proofs, render, spec_ids


def _spec() -> str:
    return SPEC.read_text(encoding="utf-8")


def test_every_marker_names_a_requirement_of_docs_spec():
    """A tag with an id docs/spec.md does not list (a typo, a section number, a retired id) fails."""
    listed = set(spec_ids(_spec()))
    unknown = {spec_id: paths for spec_id, paths in proofs().items() if spec_id not in listed}
    assert not unknown, f"pytest.mark.spec ids missing from docs/spec.md: {unknown}"


def test_each_requirement_is_listed_once_with_one_proven_by_line():
    """Every requirement id appears once, and each has exactly one "Proven by" sub-item under it."""
    text = _spec()
    ids = spec_ids(text)
    assert ids and len(ids) == len(set(ids)), ids
    blocks = REQUIREMENT.split(text)[1:]  # id, body, id, body, ...
    for spec_id, body in zip(blocks[::2], blocks[1::2], strict=True):
        proven = [line for line in body.splitlines() if PROVEN_BY.match(line)]
        assert len(proven) == 1, (spec_id, proven)


def test_proven_by_lists_are_current():
    """Each "Proven by" line names exactly the test files tagged with its id (regenerate with
    ``python -m tests.support.spec_markers``), so no requirement claims a file that does not prove it."""
    text = _spec()
    assert text == render(text, proofs()), "docs/spec.md is stale: run python -m tests.support.spec_markers"


def test_every_requirement_is_proven_by_some_test():
    """No requirement is left without a tagged test."""
    unproven = [line for line in _spec().splitlines() if PROVEN_BY.match(line) and NOT_PROVEN in line]
    assert not unproven, unproven


def test_the_scan_finds_decorators_module_marks_and_params(tmp_path: Path):
    """The parser sees every way a test can be tagged, and render() rewrites only "Proven by" lines."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "bench").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text(
        "import pytest\n"
        'pytestmark = [pytest.mark.spec("R-1.1")]\n'
        '@pytest.mark.spec("R-1.2", "R-1.3")\n'
        "def test_x(): pass\n"
        '@pytest.mark.parametrize("v", [pytest.param(1, marks=pytest.mark.spec("R-1.4"))])\n'
        "def test_y(v): pass\n"
    )
    (tmp_path / "bench" / "test_b.py").write_text('from pytest import mark\n@mark.spec("R-1.2")\ndef test_z(): pass\n')

    found = proofs(tmp_path)

    assert found == {
        "R-1.1": ["tests/test_a.py"],
        "R-1.2": ["bench/test_b.py", "tests/test_a.py"],
        "R-1.3": ["tests/test_a.py"],
        "R-1.4": ["tests/test_a.py"],
    }
    doc = "- **R-1.2** text\n  more text\n  - Proven by: `tests/gone.py`\n- **R-1.9** text\n  - Proven by: none yet\n"
    assert render(doc, found) == (
        "- **R-1.2** text\n  more text\n  - Proven by: `bench/test_b.py`, `tests/test_a.py`\n"
        f"- **R-1.9** text\n  - Proven by: {NOT_PROVEN}\n"
    )
    assert spec_ids(doc) == ["R-1.2", "R-1.9"]
