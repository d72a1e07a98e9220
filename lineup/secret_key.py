"""The embedded default's ``SECRET_KEY``: made once per install, kept in its data directory.

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
