"""The embedded default under repeated kill -9: every focus settles once, from its persisted ``ends_at``.

``manage.py run_embedded`` (SQLite, the in-process deadline scheduler, nothing else configured) is
started, given focuses of 1-2 s in three conversations by an Agent over ``/ws/agent/``, and SIGKILLed
at a seeded moment — before some ``ends_at``, after others — then left down for a seeded moment
(some fall due while nothing runs), ``LINEUP_EMBEDDED_KILL_CYCLES`` times (6 in CI; the full size,
20, is run by hand: docs/reliability.md). A last start
settles whatever is left. Then, from the SQLite file: every focus is ``completed`` at its ``ends_at``
with exactly one settlement event and one outbox entry — whether its deadline passed while the server
ran, while it was down, or across several crashes. ``LINEUP_CRASH_SEED`` replays a run's timings.
"""

from __future__ import annotations

import os
import random
import sqlite3
import time
from collections import Counter

import pytest

from tests.lineup.gateways.agent_socket.client import AgentSocket
from tests.support.processes import free_port, manage_py_argv, supervised_processes, wait_for
from tests.test_embedded_default import _clean_env, _http_ok, _parse

# CI runs a few cycles (each boots the server: ~4 s); LINEUP_EMBEDDED_KILL_CYCLES=20 is the full size.
CYCLES = int(os.environ.get("LINEUP_EMBEDDED_KILL_CYCLES", "6"))

SETUP = """
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from runtime.models import Conversation
from runtime.services.agents import create_agent_token
from runtime.services.conversations import conversation_get_or_create_default
from runtime.services.workspace_locks import lock_workspace
user = User.objects.get(username="lineup")
ids = [conversation_get_or_create_default(user=user).id]
for number in range(2):
    with transaction.atomic():
        conversation = Conversation.objects.create(owner=user, title=f"lane {number}")
        lock_workspace(conversation.id, now=timezone.now())
    ids.append(conversation.id)
print("TOKEN", create_agent_token(user=user, name="kill-cycles", now=timezone.now())[1])
print("CONVERSATIONS", *ids)
"""


@pytest.mark.spec("R-4.2.3", "R-4.4.1", "R-4.4.2")
def test_every_focus_settles_once_from_its_ends_at_across_kill_cycles(request, tmp_path):
    """CYCLES times (start, focuses running, SIGKILL, down a moment); then exactly one completion each, at ends_at."""
    configured = os.environ.get("LINEUP_CRASH_SEED", "").strip()
    seed = int(configured) if configured else random.SystemRandom().randrange(10**6)
    rng = random.Random(seed)
    print(f"\n[embedded] seed={seed} cycles={CYCLES} (replay: LINEUP_CRASH_SEED={seed})")
    env = _clean_env(tmp_path)
    db_path = tmp_path / "db.sqlite3"
    started: dict[str, str] = {}  # operation id (hex) -> conversation id
    timeline: list[str] = []

    def focusing(db: sqlite3.Connection, conversation_id: str) -> bool:
        row = db.execute(
            "SELECT 1 FROM runtime_operation WHERE conversation_id = ? AND state IN ('focusing', 'running')",
            (conversation_id.replace("-", ""),),
        ).fetchone()
        return row is not None

    with supervised_processes(request, tmp_path) as processes:

        def serve(number: int) -> tuple[object, str]:
            port = free_port()
            server = processes.start(f"embedded-{number}", manage_py_argv("run_embedded", "--port", str(port)), env=env)
            wait_for(
                lambda: _http_ok(f"http://127.0.0.1:{port}/admin/login/") or not server.alive,
                timeout=60,
                what="the embedded server",
                describe=processes.describe,
            )
            assert server.alive, processes.describe()
            return server, f"ws://127.0.0.1:{port}/ws/agent/"

        server, url = serve(0)
        setup = processes.run("setup", manage_py_argv("shell", "-c", SETUP), env=env)
        token = setup.split("TOKEN", 1)[1].split()[0]
        conversations = setup.split("CONVERSATIONS", 1)[1].split()
        db = sqlite3.connect(db_path, timeout=10)
        try:
            for cycle in range(1, CYCLES + 1):
                if cycle > 1:
                    server, url = serve(cycle)
                socket = AgentSocket(url)
                socket.hello(token)
                for conversation_id in conversations:
                    if focusing(db, conversation_id):
                        continue  # still running from before the last crash: its deadline is the test
                    accepted = socket.start(conversation_id, f"c{cycle}-{conversation_id[:8]}", rng.randint(1, 2))
                    assert accepted["type"] == "tool.accepted", accepted
                    started[accepted["operation_id"].replace("-", "")] = conversation_id
                up = rng.uniform(0.2, 1.8)  # the crash lands at a seeded moment, before or after some ends_at
                time.sleep(up)
                socket.close()
                server.kill()
                down = rng.uniform(0.0, 1.0)
                timeline.append(f"cycle {cycle}: up {up:.2f}s, SIGKILL, down {down:.2f}s")
                time.sleep(down)
            server, _ = serve(CYCLES + 1)  # the last start settles what is left

            def all_final() -> bool:
                placeholders = ",".join("?" * len(started))
                (left,) = db.execute(
                    f"SELECT COUNT(*) FROM runtime_operation WHERE state IN ('focusing', 'running') AND id IN ({placeholders})",
                    list(started),
                ).fetchone()
                return left == 0

            wait_for(all_final, timeout=30, what="every focus to settle", describe=processes.describe)
            context = f"seed={seed} (replay: LINEUP_CRASH_SEED={seed})\n" + "\n".join(timeline)
            # The duration each start asked for: its call's arguments (the operation keeps only its times).
            rows = db.execute(
                "SELECT o.id, o.state, o.ends_at, o.ended_at, o.settled_at, o.started_at,"
                " json_extract(c.arguments, '$.duration_seconds')"
                " FROM runtime_operation o JOIN runtime_toolcall c ON c.id = o.tool_call_id"
            ).fetchall()
            assert {row[0] for row in rows} == set(started), context
            settlements = Counter(
                row[0].replace("-", "")
                for row in db.execute(
                    "SELECT operation_id FROM runtime_lifecycleevent WHERE kind IN "
                    "('operation.completed', 'operation.interrupted')"
                )
            )
            outbox = Counter(row[0] for row in db.execute("SELECT operation_id FROM runtime_outboxentry"))
            late = [(_parse(settled) - _parse(ends)).total_seconds() for _, _, ends, _, settled, _, _ in rows]
            assert max(late) > 1.0, f"no focus fell due while the server was down: the run proved nothing\n{context}"
            for operation_id, state, ends_at, ended_at, _, started_at, duration in rows:
                assert state == "completed", f"{operation_id} is {state}\n{context}"
                # A restart never restarts the duration: ends_at is still the start's.
                assert (_parse(ends_at) - _parse(started_at)).total_seconds() == duration, f"{operation_id}\n{context}"
                assert _parse(ended_at) == _parse(ends_at), (
                    f"{operation_id} ended {ended_at}, ends_at {ends_at}\n{context}"
                )
                assert settlements[operation_id] == 1, (
                    f"{operation_id} settled {settlements[operation_id]} times\n{context}"
                )
                assert outbox[operation_id] == 1, f"{operation_id} has {outbox[operation_id]} outbox entries\n{context}"
            print(
                f"[embedded] {len(rows)} focuses over {CYCLES} kill -9 cycles, each completed once at its ends_at; "
                f"{sum(lag > 1.0 for lag in late)} settled by a later start (max {max(late):.1f}s after ends_at)"
            )
        finally:
            db.close()
