"""``SECRET_KEY``: the embedded default's, made once per install and kept in its data directory; and
the check that refuses a configured key anyone could know.

Read by ``lineup.settings`` when ``LINEUP_SECRET_KEY`` is not set and nothing else is configured (the
embedded default), so every process of one install — ``run_embedded``, ``manage.py`` commands, the
Desktop Host — signs with the same key and sessions survive restarts, while no two installs share one.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from django.core.management.utils import get_random_secret_key

FILE_NAME = "secret_key"
MIN_LENGTH = 50  # Django's own deployment check asks as much
# Placeholders published with the code (docs/operations/lineup.env.example) and Django's own kind.
EXAMPLE_KEYS = frozenset({"CHANGE-ME-SECRET-KEY"})
EXAMPLE_PREFIXES = ("CHANGE-ME", "django-insecure-")
HOW_TO_MAKE_ONE = "python -c 'import secrets; print(secrets.token_urlsafe(50))'"


def weak_key_problem(key: str) -> str | None:
    """Why ``key`` must not sign anything in production (an example, too short, too few distinct
    characters), or None. Sessions, password resets and the built-in Agents' tokens hang on it."""
    if key in EXAMPLE_KEYS or key.startswith(EXAMPLE_PREFIXES):
        return "it is the example from the documentation"
    if len(key) < MIN_LENGTH:
        return f"it has {len(key)} characters, fewer than {MIN_LENGTH}"
    if len(set(key)) < 5:
        return "it has fewer than 5 different characters"
    return None


def refuse_weak_key(key: str) -> None:
    """Raise at start-up if ``key`` is weak (``weak_key_problem``), saying how to make a good one."""
    problem = weak_key_problem(key)
    if problem is not None:
        raise RuntimeError(
            f"LINEUP_SECRET_KEY is refused: {problem}. Make one with\n    {HOW_TO_MAKE_ONE}\n"
            "and put it in LINEUP_SECRET_KEY (keep the old one in LINEUP_SECRET_KEY_FALLBACKS while "
            "sessions move over). LINEUP_DEBUG=1 lets a weak key through, for development only."
        )


def install_secret_key(data_dir: Path) -> str:
    """The key in ``data_dir/secret_key``, created (readable only by its owner) if there is none."""
    path = data_dir / FILE_NAME
    if path.exists():
        return _read(path)
    data_dir.mkdir(parents=True, exist_ok=True)
    # Written whole under another name, then linked into place: a process starting at the same
    # moment either wins the link or reads the winner's complete key, never a half-written one.
    draft = data_dir / f".{FILE_NAME}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as file:
            file.write(get_random_secret_key() + "\n")
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
    finally:
        draft.unlink()
    return _read(path)


def _read(path: Path) -> str:
    key = path.read_text().strip()
    if not key:
        raise RuntimeError(f"{path} is empty: delete it to make a new key (signed-in sessions end)")
    return key
