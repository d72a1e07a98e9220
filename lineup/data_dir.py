"""The embedded default's data directory: readable by its owner only.

The SQLite database holds live session keys; it was 0644 in a 0755 directory, so any local user could
read them and sign in as anyone. The directory is made 0700 and the database and its journal files
0600: created so, and fixed on every start for installs made before.
"""

from __future__ import annotations

import os
from pathlib import Path

DIRECTORY_MODE = 0o700
FILE_MODE = 0o600
SQLITE_SUFFIXES = ("", "-wal", "-shm", "-journal")  # SQLite gives its side files the database's mode


def secure_data_dir(data_dir: Path, database_name: str = "db.sqlite3") -> Path:
    """Create or fix ``data_dir`` (0700) and its SQLite files (0600); return the database path."""
    data_dir.mkdir(mode=DIRECTORY_MODE, parents=True, exist_ok=True)
    data_dir.chmod(DIRECTORY_MODE)
    database = data_dir / database_name
    # Created empty here with its final mode, before SQLite would create it under the umask.
    os.close(os.open(database, os.O_CREAT | os.O_WRONLY, FILE_MODE))
    for suffix in SQLITE_SUFFIXES:
        path = data_dir / (database_name + suffix)
        if path.exists():
            path.chmod(FILE_MODE)
    for name in ("secret_key", "login.json"):  # written 0600 already; fixed like the rest
        if (data_dir / name).exists():
            (data_dir / name).chmod(FILE_MODE)
    return database
