"""No hidden circle: no module of LineUp imports itself back through others (decision 0052).

The graph is read from the source (``ast``), so it sees every import a reader follows: at module
level, inside functions (an import deferred to dodge a circle is still one) and under
``TYPE_CHECKING``. A module that needs something of a module that imports it takes it from a lower
module both can import (a model's module, ``runtime.tool_calls``), or names it by a ``Protocol``.
Migrations are left out: Django loads them, nothing imports them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("runtime", "interact", "lineup", "miniapps", "agents")


def _modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    found = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    """The module of ours that ``name`` (a module or a module's attribute) lives in, if any."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Each module of ours and the modules of ours it imports, anywhere in its text."""
    modules = _modules(root, packages)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets.update(_owner(alias.name, modules) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                # ``from runtime import metrics`` imports the module runtime.metrics.
                targets.update(_owner(f"{source}.{alias.name}", modules) for alias in node.names)
        graph[module] = {t for t in targets if t is not None and t != module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle (``a -> b -> ... -> a``) through each group of modules that import each other."""
    found: list[list[str]] = []
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        # Depth-first, iteratively; a grey module on the path seen again closes a circle.
        path: list[str] = []
        on_path: set[str] = set()
        stack = [(start, iter(sorted(graph[start])))]
        path.append(start)
        on_path.add(start)
        while stack:
            module, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                on_path.discard(module)
                done.add(module)
            elif child in on_path:
                circle = [*path[path.index(child) :], child]
                if not any(set(circle) <= set(seen) for seen in found):
                    found.append(circle)
            elif child not in done:
                stack.append((child, iter(sorted(graph[child]))))
                path.append(child)
                on_path.add(child)
    return found


def test_no_module_imports_itself_back() -> None:
    graph = import_graph()
    assert "runtime.services.settlements" in graph and "agents.reference.agent" in graph  # the graph is real
    found = circles(graph)
    assert not found, "import circles (break each by moving the shared piece to a lower module):\n" + "\n".join(
        " -> ".join(circle) for circle in found
    )


def test_a_circle_is_seen_wherever_its_import_is(tmp_path: Path) -> None:
    """The check can fail: a function-local import back, or one under TYPE_CHECKING, closes a circle."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "low.py").write_text("import os\n")
    (tmp_path / "pkg" / "a.py").write_text("from pkg import b\nfrom . import low\n")
    (tmp_path / "pkg" / "b.py").write_text("def later():\n    from pkg.a import thing\n")
    assert circles(import_graph(tmp_path, ("pkg",))) == [["pkg.a", "pkg.b", "pkg.a"]]

    (tmp_path / "pkg" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import T\n"
    )
    assert circles(import_graph(tmp_path, ("pkg",))) == [["pkg.a", "pkg.b", "pkg.a"]]

    (tmp_path / "pkg" / "b.py").write_text("from pkg.low import thing\n")
    assert import_graph(tmp_path, ("pkg",))["pkg.a"] == {"pkg.b", "pkg.low"}
    assert circles(import_graph(tmp_path, ("pkg",))) == []
