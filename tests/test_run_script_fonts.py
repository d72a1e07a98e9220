"""``scripts/run`` tells a Chinese-speaking person when no CJK font is installed (issue 40).

The check (``warn_without_cjk_font`` in ``scripts/lib/common.sh``) is run the way ``scripts/run``
runs it, in bash, with fontconfig pointed at a configuration of the test's own
(``FONTCONFIG_FILE``): one with only a Latin font directory, and the machine's own (which has a
CJK font: ``.ci/run`` installs ``fonts-noto-cjk``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LATIN_FONTS = "/usr/share/fonts/truetype/dejavu"
CHINESE = "这台机器没有安装中文字体"
ENGLISH = "Note: no Chinese (CJK) font is installed"


def warn(tmp_path: Path, *, fonts: Path | None, **locale: str) -> str:
    """The check's stderr, in a clean environment with ``locale`` and (optionally) ``fonts``."""
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), **locale}
    if fonts is not None:
        env["FONTCONFIG_FILE"] = str(fonts)
    completed = subprocess.run(
        ["bash", "-c", 'set -euo pipefail; source scripts/lib/common.sh; warn_without_cjk_font; echo "went on"'],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert completed.returncode == 0 and completed.stdout == "went on\n", completed
    return completed.stderr


@pytest.mark.spec("R-4.1.1")
def test_a_chinese_locale_without_a_cjk_font_is_warned_once_in_both_languages(tmp_path):
    if shutil.which("fc-list") is None:
        pytest.fail(
            "fc-list is missing: apt-get install fontconfig (fonts-noto-cjk, which .ci/run installs, brings it)",
            pytrace=False,
        )
    latin_only = tmp_path / "fonts.conf"
    latin_only.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">'
        f"<fontconfig><dir>{LATIN_FONTS}</dir><cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>"
    )
    said = warn(tmp_path, fonts=latin_only, LANG="zh_CN.UTF-8")
    assert said.count(CHINESE) == 1 and said.count(ENGLISH) == 1, said
    assert "fonts-noto-cjk" in said
    # LANGUAGE alone (an English locale, Chinese preferred) is a Chinese-speaking person too.
    assert ENGLISH in warn(tmp_path, fonts=latin_only, LANG="en_GB.UTF-8", LANGUAGE="zh_CN:en")
    # Not for an English-speaking person, and not where a CJK font is installed.
    assert warn(tmp_path, fonts=latin_only, LANG="en_GB.UTF-8") == ""
    assert warn(tmp_path, fonts=None, LANG="zh_CN.UTF-8") == ""


def test_scripts_run_checks_before_it_starts_the_server():
    lines = (ROOT / "scripts" / "run").read_text().splitlines()
    assert lines.index("warn_without_cjk_font") < next(i for i, line in enumerate(lines) if line.startswith("exec "))
