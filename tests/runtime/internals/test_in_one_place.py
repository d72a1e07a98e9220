"""The libraries' private internals are used in their internals modules only (decision 0052).

Read from the source (``ast``): outside ``runtime.internals`` and ``lineup.internals`` no product
module reads or writes the private attributes those modules wrap, nor overrides Channels'
``dispatch``. A new trick goes into the module of its library, with its function and its test.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("runtime", "interact", "lineup", "miniapps", "agents")
INTERNALS = ("runtime/internals/", "lineup/internals/")

# Django's connection wrapper and model internals (runtime.internals.django_db), Twisted's wrapped
# HTTP channel (lineup.internals.daphne).
PRIVATE_ATTRIBUTES = frozenset(
    {
        "execute_wrappers",
        "run_on_commit",
        "health_check_done",
        "savepoint_ids",
        "in_atomic_block",
        "from_db",
        "set_cached_value",
        "is_cached",
        "_channel",
    }
)
# A prefix and the names it may still use while a move is under way (none now).
NOT_YET_MOVED: dict[str, frozenset[str]] = {}


# Underscored names that are public: the model ``_meta`` API (documented), ``os._exit``.
PUBLIC_UNDERSCORED = frozenset({"_meta", "_exit"})


def _private_of_another(node: ast.Attribute) -> bool:
    """``x._name`` where ``x`` is not the object's own ``self``/``cls`` (another's private name)."""
    own = isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}
    dunder = node.attr.startswith("__") and node.attr.endswith("__")
    return node.attr.startswith("_") and not (own or dunder or node.attr in PUBLIC_UNDERSCORED)


def private_uses(path: Path) -> list[tuple[int, str]]:
    """(line, what) for each private attribute used in ``path`` and each ``dispatch`` override."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Attribute) and (node.attr in PRIVATE_ATTRIBUTES or _private_of_another(node)):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in {"getattr", "setattr", "hasattr"}:
            name = node.args[1] if len(node.args) > 1 else None
            if isinstance(name, ast.Constant) and isinstance(name.value, str) and name.value.startswith("_"):
                found.append((node.lineno, name.value))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.AsyncFunctionDef | ast.FunctionDef) and item.name == "dispatch":
                    found.append((item.lineno, "dispatch"))
    return found


def test_private_internals_live_in_their_modules_only() -> None:
    strays = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(INTERNALS) or "/migrations/" in relative:
                continue
            allowed = set().union(*(names for prefix, names in NOT_YET_MOVED.items() if relative.startswith(prefix)))
            strays += [f"{relative}:{line}: {what}" for line, what in private_uses(path) if what not in allowed]
    assert not strays, "use the internals modules' functions instead:\n" + "\n".join(strays)


def test_the_check_sees_each_kind_of_use(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "connection.execute_wrappers.append(w)\n"
        "getattr(protocol, '_channel', protocol)\n"
        "class Consumer:\n    async def dispatch(self, message): ...\n"
        "connection.vendor\n"
        "connection._lineup_events = None\n"
        "self._own = os._exit\n"
    )
    assert sorted(private_uses(probe)) == [
        (1, "execute_wrappers"),
        (2, "_channel"),
        (4, "dispatch"),
        (6, "_lineup_events"),
    ]
