"""The versions requirements*.txt pins, and the check that an internals module was written for them.

Each module of ``runtime.internals`` / ``lineup.internals`` says which versions its tricks were
checked against (``CHECKED_AGAINST``); its test asserts that the pin and the installed package are
those versions (decision 0052). Upgrading a pin therefore fails that test until someone re-checks
the tricks against the new version and renames the test for it.
"""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def pinned_version(package: str) -> str | None:
    """The ``==`` version of ``package`` in requirements*.txt (None when it is not pinned there)."""
    wanted = _normal(package)
    for path in sorted(ROOT.glob("requirements*.txt")):
        for line in path.read_text().splitlines():
            match = re.match(r"^\s*([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*==\s*([^\s;#]+)", line)
            if match and _normal(match.group(1)) == wanted:
                return match.group(2)
    return None


def assert_checked_against(checked_against: dict[str, str], test_file: str) -> None:
    """Each package is pinned at, and installed in, the version its tricks were checked against,
    and the test (``test_file``) is named for that version."""
    for package, version in checked_against.items():
        assert version.replace(".", "_") in Path(test_file).stem, f"{test_file} is not named for {package} {version}"
        assert pinned_version(package) == version, (
            f"{package} is pinned at {pinned_version(package)}; its internals were checked against {version}: "
            "re-check each trick of the internals module and its test, then update CHECKED_AGAINST and the test's name"
        )
        assert importlib.metadata.version(package) == version, (
            f"{package} {importlib.metadata.version(package)} is installed; the pin says {version}"
        )


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
