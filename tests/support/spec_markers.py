"""Which test files prove which requirement: the ``pytest.mark.spec`` ids read from the sources, and
the "Proven by" lines of docs/spec.md generated from them.

``python -m tests.support.spec_markers`` rewrites those lines after tests gain or lose a tag;
tests/test_spec_markers.py fails while they are stale or while a tag names an id docs/spec.md lacks.
The sources are parsed, not imported, so this needs no Django settings and sees every file.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "docs" / "spec.md"
TEST_DIRS = ("tests", "bench")

# A requirement line: "- **R-3.12** text", then its sub-item "  - Proven by: `path`, `path`".
REQUIREMENT = re.compile(r"^- \*\*(?P<id>R-\d+(?:\.\d+)+)\*\*", re.MULTILINE)
PROVEN_BY = re.compile(r"^(?P<indent>\s+)- Proven by: (?P<paths>.*)$")
NOT_PROVEN = "none yet"


def _is_spec_mark(func: ast.expr) -> bool:
    # pytest.mark.spec(...) or mark.spec(...)
    if not (isinstance(func, ast.Attribute) and func.attr == "spec"):
        return False
    owner = func.value
    return (isinstance(owner, ast.Attribute) and owner.attr == "mark") or (
        isinstance(owner, ast.Name) and owner.id == "mark"
    )


def marker_ids(path: Path) -> set[str]:
    """Every id a ``pytest.mark.spec(...)`` call in this file names (decorators, ``pytestmark``, params)."""
    ids: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Call) and _is_spec_mark(node.func):
            for arg in node.args:
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    raise ValueError(f"{path}:{node.lineno}: spec ids must be string literals")
                ids.add(arg.value)
    return ids


def proofs(root: Path = ROOT) -> dict[str, list[str]]:
    """Requirement id -> the test files (relative paths, sorted) with a test tagged with it."""
    by_id: dict[str, set[str]] = defaultdict(set)
    for folder in TEST_DIRS:
        for path in sorted((root / folder).rglob("*.py")):
            if "node_modules" in path.parts:
                continue
            for spec_id in marker_ids(path):
                by_id[spec_id].add(path.relative_to(root).as_posix())
    return {spec_id: sorted(paths) for spec_id, paths in by_id.items()}


def spec_ids(text: str) -> list[str]:
    """The requirement ids docs/spec.md lists, in order."""
    return [match["id"] for match in REQUIREMENT.finditer(text)]


def render(text: str, found: dict[str, list[str]]) -> str:
    """docs/spec.md with each requirement's "Proven by" line set from ``found``."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    current: str | None = None
    for line in lines:
        requirement = REQUIREMENT.match(line)
        if requirement:
            current = requirement["id"]
        proven = PROVEN_BY.match(line.rstrip("\n"))
        if proven and current is not None:
            paths = ", ".join(f"`{p}`" for p in found.get(current, [])) or NOT_PROVEN
            line = f"{proven['indent']}- Proven by: {paths}\n"
            current = None
        out.append(line)
    return "".join(out)


def main() -> int:
    text = SPEC.read_text(encoding="utf-8")
    updated = render(text, proofs())
    if updated != text:
        SPEC.write_text(updated, encoding="utf-8")
        print(f"updated {SPEC.relative_to(ROOT)}")
    else:
        print(f"{SPEC.relative_to(ROOT)} is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
