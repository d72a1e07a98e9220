"""Crash at every step: the full crash-point enumeration, or one case replayed.

    python -m bench.crashpoints                      # every kind, every k of its uncrashed run
    python -m bench.crashpoints --kinds start,ack    # some kinds, every k
    python -m bench.crashpoints --case eta:5:4711    # one case alone, as a failure prints it
    python -m bench.crashpoints --sample             # CI's share: a few seeded kinds, one k each
    python -m bench.crashpoints --engine sqlite      # the same on SQLite: the embedded product

Each decision kind (``tests/reliability/crashpoints.py``, ``KINDS``: start, start_beside, interrupt,
eta, sweep, recover, deliver, ack, close, switch, message, snapshot, answer, open, note,
close_note, open_instance, close_by_agent) is run once uncrashed to count its steps n, then once
per k = 0 … n-1 with its process killed (``os._exit``) at step k, recovered and checked
(``bench.history.check_case``). It runs the
harness through the test runner (``scripts/test``: the suite's PostgreSQL test database, a Redis of
its own, real Daphne, Celery worker and beat processes), so it needs what the suite needs. The
results go to ``--out`` (JSON lines, one per case) and a summary is printed; exit status 1 when any
case failed.

``--engine sqlite`` runs the same kinds on the embedded product instead (``manage.py run_embedded``
on a SQLite test database in a fresh temporary directory: one process that is Daphne, worker and
beat; ``tests/reliability/test_crashpoints_sqlite.py``). ``--sample`` runs only CI's share.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = {
    "postgresql": "tests/reliability/test_crashpoints.py",
    "sqlite": "tests/reliability/test_crashpoints_sqlite.py",
}
SAMPLE_TESTS = {
    "postgresql": "test_a_sample_of_crash_points_of_every_decision_keeps_every_promise",
    "sqlite": "test_a_sample_of_crash_points_on_sqlite_keeps_every_promise",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.crashpoints", description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", help="comma-separated kinds (default: all)")
    parser.add_argument("--case", help="one case, kind:k:seed (what a failure prints)")
    parser.add_argument("--seed", type=int, help="the seed of every case (default: a new one)")
    parser.add_argument("--out", type=Path, default=None, help="results, JSON lines (default: a temporary file)")
    parser.add_argument(
        "--engine", choices=sorted(TESTS), default="postgresql", help="the database (default: postgresql)"
    )
    parser.add_argument("--sample", action="store_true", help="CI's share only: a few seeded kinds, one k each")
    args = parser.parse_args(argv)

    out = args.out or Path(f"/tmp/lineup-crashpoints-{os.getpid()}.jsonl")
    out.unlink(missing_ok=True)
    env = {**os.environ, "LINEUP_CRASHPOINTS_OUT": str(out)}
    if args.engine == "sqlite":
        # scripts/test runs the suite on LINEUP_TEST_DATABASE_URL; the test database is the file
        # test_lineup.sqlite3 beside the one named (tests/conftest.py), created and migrated fresh.
        data = Path(tempfile.mkdtemp(prefix="lineup-crashpoints-sqlite-"))
        env["LINEUP_TEST_DATABASE_URL"] = f"sqlite:///{data / 'lineup.sqlite3'}"
    test = TESTS[args.engine]
    selector: list[str] = []
    if args.sample:
        env.pop("LINEUP_CRASHPOINTS", None)
        test = f"{test}::{SAMPLE_TESTS[args.engine]}"
    elif args.case:
        kind = args.case.split(":")[0]
        env["LINEUP_CRASHPOINTS"] = args.case
        selector = ["-k", f"[{kind}]"]
    else:
        env["LINEUP_CRASHPOINTS"] = "all"
        if args.kinds:
            selector = ["-k", " or ".join(f"[{kind}]" for kind in args.kinds.split(","))]
    if args.seed is not None:
        env["LINEUP_CRASH_SEED"] = str(args.seed)
    began = time.monotonic()
    command = ["bash", "scripts/test", test, "-q", "-s", *selector]
    print("$", " ".join(command), file=sys.stderr)
    status = subprocess.run(command, cwd=ROOT, env=env, check=False).returncode
    results = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    crashed = [r for r in results if r["crashed_at"] is not None]
    failed = [r for r in results if r["violations"]]
    by_kind = Counter(r["case"].split(":")[0] for r in crashed)
    by_point = Counter(r["crashed_at"].split(" ")[0] for r in crashed)
    print(
        f"crashpoints ({args.engine}): {'PASS' if status == 0 and not failed else 'FAIL'} - {len(crashed)} crash cases "
        f"({json.dumps(dict(by_kind), sort_keys=True)}; by step {json.dumps(dict(by_point), sort_keys=True)}), "
        f"{len(results) - len(crashed)} uncrashed runs, {len(failed)} failed, {time.monotonic() - began:.0f} s; "
        f"results: {out}"
    )
    for r in failed:
        print(f"  FAIL {r['case']} at {r['crashed_at']!r}: {r['violations'][:3]} - replay: {r['replay']}")
    return 0 if status == 0 and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
