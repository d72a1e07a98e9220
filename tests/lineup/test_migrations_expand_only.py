"""The static half of the rolling upgrade: migrations added since the latest release only expand.

The previous release's processes run while the new migrations apply (docs/operations.md, "Upgrades";
tests/reliability/test_rolling_upgrade.py runs them). A migration that drops or renames a table or
column, makes a column required, or adds a required column without a database default breaks them, so
it may only ship one release after the code stopped using what it takes away: listed in
``lineup.releases.CONTRACTIONS`` with the release it ships in (the next one), and told in
docs/releases.md.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from django.apps import apps
from django.db.migrations.loader import MigrationLoader

from lineup.releases import CONTRACTIONS, NEXT_RELEASE, RELEASES, ROLLING_CONTRACTIONS, latest_release
from lineup.upgrades import CONTRACT, DATA, classify

ROOT = Path(__file__).resolve().parents[2]


def migrations_at(commit: str) -> set[str]:
    """The migration files (repository paths) in ``commit``'s tree."""
    listed = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", commit], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if listed.returncode != 0:
        pytest.fail(f"commit {commit} is not in this clone: {listed.stderr.strip()}", pytrace=False)
    return {path for path in listed.stdout.split() if "/migrations/0" in path and path.endswith(".py")}


def migrations_now() -> set[str]:
    return {
        str(path.relative_to(ROOT))
        for config in apps.get_app_configs()
        if Path(config.path).is_relative_to(ROOT)
        for path in Path(config.path, "migrations").glob("0*.py")
    }


def as_nodes(paths: set[str]) -> list[tuple[str, str]]:
    by_directory = {
        str(Path(c.path).relative_to(ROOT)): c.label
        for c in apps.get_app_configs()
        if Path(c.path).is_relative_to(ROOT)
    }
    return [(by_directory[path.rsplit("/migrations/", 1)[0]], Path(path).stem) for path in sorted(paths)]


def new_since(commit: str, later: set[str] | None = None) -> list[tuple[str, str]]:
    return as_nodes((migrations_now() if later is None else later) - migrations_at(commit))


def test_migrations_since_the_latest_release_only_expand() -> None:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    findings = classify(loader, new_since(latest_release().commit))
    unlisted = [f for f in findings if f.kind == CONTRACT and f.node not in CONTRACTIONS]
    assert not unlisted, (
        f"these migrations take away what {latest_release().tag} reads or writes while it still runs "
        "(ship the removal a release later; or list it in lineup.releases.CONTRACTIONS for "
        f"{NEXT_RELEASE} and say in docs/releases.md to stop before migrating):\n"
        + "\n".join(f"  {f.label}: {f.what}" for f in unlisted)
    )


def test_listed_contractions_name_the_release_that_first_had_them() -> None:
    """A contraction new since the latest release names the next one; a past one names the release whose
    tree first had it (so no entry can excuse a new migration by naming an old release)."""
    assert NEXT_RELEASE not in {r.tag for r in RELEASES}
    new = set(new_since(latest_release().commit))
    now = set(as_nodes(migrations_now()))
    trees = {r.tag: set(as_nodes(migrations_at(r.commit))) for r in RELEASES}
    for node, release in CONTRACTIONS.items():
        assert node in now, f"{node} is listed in CONTRACTIONS but there is no such migration"
        if node in new:
            assert release == NEXT_RELEASE, f"{node} is new: it ships in {NEXT_RELEASE}, not {release}"
            continue
        assert release in trees, f"{node}: {release} is not a release in lineup.releases"
        index = [r.tag for r in RELEASES].index(release)
        assert node in trees[release], f"{node} is not in {release}"
        assert index == 0 or node not in trees[RELEASES[index - 1].tag], f"{node} was already in an earlier release"


def test_rolling_contractions_name_the_release_they_roll_from_and_its_last_migration() -> None:
    """A rolling contraction (decision 0053) rolls from a release whose tree has the migration
    ``upgrade_check`` looks for and not the contraction itself; a new one rolls from the latest release;
    and it is not also a stop-before-migrate one."""
    new = set(new_since(latest_release().commit))
    releases = {r.tag: r for r in RELEASES}
    for node, (release, reached) in ROLLING_CONTRACTIONS.items():
        assert node not in CONTRACTIONS, f"{node} is listed as both rolling and stop-before-migrate"
        assert release in releases, f"{node}: {release} is not a release in lineup.releases"
        tree = set(as_nodes(migrations_at(releases[release].commit)))
        assert reached in tree and node not in tree, f"{node}: {release}'s tree must have {reached} and not it"
        if node in new:
            assert release == latest_release().tag, f"{node} is new: it can only roll from {latest_release().tag}"


def test_the_guard_catches_what_broke_the_upgrade_from_v2026_12_1() -> None:
    """From v2026.12.1 to v2026.12.2 the previous release's processes failed (issue 41): 0012 added
    required columns without database defaults and 0014 dropped two columns; 0013 rewrote every operation."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    first, second = RELEASES[0], RELEASES[1]
    findings = classify(loader, new_since(first.commit, migrations_at(second.commit)))
    contractions = {(f.node[1], f.what.split(" (")[0]) for f in findings if f.kind == CONTRACT}
    assert contractions == {
        ("0012_operation_app_id_exclusive_details", "adds required column operation.app_id without db_default"),
        ("0012_operation_app_id_exclusive_details", "adds required column operation.details without db_default"),
        ("0012_operation_app_id_exclusive_details", "adds required column operation.exclusive without db_default"),
        ("0014_operation_generic_columns_only", "drops operation.activity"),
        ("0014_operation_generic_columns_only", "drops operation.duration_seconds"),
    }
    data = [f for f in findings if f.kind == DATA]
    assert [(f.node[1], f.tables) for f in data] == [
        ("0013_operation_details_from_pomodoro_columns", ("runtime_operation",))
    ]
