"""The embedded default's data directory is its owner's only (lineup.data_dir)."""

from __future__ import annotations

import stat

import pytest

from lineup.data_dir import secure_data_dir


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.spec("R-2.2.3")
def test_a_new_data_directory_and_database_are_created_private(tmp_path):
    database = secure_data_dir(tmp_path / "var")
    assert (mode(tmp_path / "var"), mode(database)) == (0o700, 0o600)


@pytest.mark.spec("R-2.2.3")
def test_an_existing_install_is_fixed_on_start(tmp_path):
    """An install made before: a 0755 directory, a 0644 database and WAL files become 0700 / 0600."""
    data = tmp_path / "var"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    for name in ("db.sqlite3", "db.sqlite3-wal", "db.sqlite3-shm", "secret_key"):
        (data / name).write_bytes(b"x")
        (data / name).chmod(0o644)
    secure_data_dir(data)
    assert mode(data) == 0o700
    assert {name: mode(data / name) for name in ("db.sqlite3", "db.sqlite3-wal", "db.sqlite3-shm", "secret_key")} == {
        "db.sqlite3": 0o600,
        "db.sqlite3-wal": 0o600,
        "db.sqlite3-shm": 0o600,
        "secret_key": 0o600,
    }
    assert (data / "db.sqlite3").read_bytes() == b"x"  # fixed, not replaced
