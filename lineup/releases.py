"""LineUp's releases: each one's tag and the commit it names (docs/releases.md tells their story).

The commit is written down next to the tag because tags are not always there: a clone made from a
repository whose tags were never pushed has the commits of main's history but none of its tags. The
rolling-upgrade test (tests/reliability/test_rolling_upgrade.py) and the expand-only guard
(tests/lineup/test_migrations_expand_only.py) take the latest release's code by its commit, and check
that a tag, when present, names the same commit.

Contractions (a migration that removes or renames something, or makes a column required) are allowed
only one release after the code stopped using it: each is listed in ``CONTRACTIONS`` with the release it
ships in, which must be the next one (``NEXT_RELEASE``); docs/releases.md says what the operator does.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Release:
    tag: str  # vYYYY.MM.N: the year and month it was cut, N counting from 1 within the month
    commit: str  # the full commit id the tag names
    released: date


RELEASES: tuple[Release, ...] = (
    Release("v2026.12.1", "ed68725f3a6e10b612f1f2ffb3f3095c7788f394", date(2026, 12, 4)),
    Release("v2026.12.2", "d8e262f86e8e767025564fe9bbac4f23540ba736", date(2026, 12, 5)),
    Release("v2026.12.3", "a3c5539be9d875d8b68b3927e0e70b9c2d574965", date(2026, 12, 6)),
)

# The release being prepared on main: what the migrations added since RELEASES[-1] ship in.
NEXT_RELEASE = "v2026.12.4"

# (app label, migration name) -> the release it ships (or shipped) in. An upgrade to that release stops
# the previous one's processes before ``migrate`` (docs/releases.md). A migration added since the latest
# release may only name NEXT_RELEASE; the ones of past releases are kept here as their record.
CONTRACTIONS: dict[tuple[str, str], str] = {
    ("runtime", "0012_operation_app_id_exclusive_details"): "v2026.12.2",  # required columns, no db_default
    ("runtime", "0014_operation_generic_columns_only"): "v2026.12.2",  # drops activity, duration_seconds
}

# Rolling contractions: migrations that take away only what releases *before* the latest one read or
# write. The latest release no longer uses it, so the upgrade from it rolls (the rolling-upgrade test
# proves it); from an older release it does not. Each names the release it rolls from and that
# release's last migration of the app, which ``manage.py upgrade_check`` looks for: a database without
# it is older, and is told to stop before migrate (or to upgrade to that release first).
ROLLING_CONTRACTIONS: dict[tuple[str, str], tuple[str, tuple[str, str]]] = {
    # v2026.12.2 and before wrote and read only "focusing"; v2026.12.3 writes "running" (decision 0053)
    ("runtime", "0026_running_rows"): ("v2026.12.3", ("runtime", "0025_view_private_details")),
    # drops v2026.12.2's functions and indexes, narrows the running state to "running"
    ("runtime", "0027_running_only"): ("v2026.12.3", ("runtime", "0025_view_private_details")),
}


def latest_release() -> Release:
    """The release the running deployments are expected to be on: the one an upgrade starts from."""
    return RELEASES[-1]
