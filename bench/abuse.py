"""Hostile load on the doors: what one abusive client costs the server and everyone else.

    python -m bench.abuse            # full size (about two minutes)
    python -m bench.abuse --small    # the CI size (tests/bench/test_bench_smoke.py)

Starts its own production Daphne (PostgreSQL, Redis; bench.common) on the loopback interface only,
and while another user's Agent makes ``tool.call`` after ``tool.call`` (its quiet p99 measured first),
runs each attack in turn, stopping each by itself after ``--seconds``:

* ``junk_before_hello``  clients sending 60 KB junk frames without a hello;
* ``oversized``          a welcomed Agent sending frames just over the frame limit;
* ``flood``              a welcomed Agent sending ``message.send`` as fast as it can, then leaving:
  the messages written after it left are the *work after disconnect*;
* ``storm``              connections on one token until it is refused;
* ``mcp_parallel``       parallel ``/mcp/`` requests on one token (from a process of its own);
* ``mcp_held``           parallel ``tasks/result`` held open on one long task, one token (the same);
* ``huge_body``          ``POST``s declaring 300 MB;
* ``slow_headers``       half-sent request headers.

Daphne runs with ``-v 0``, as the shipped unit starts it (bench.common). ``--no-gc-freeze`` starts it
with ``LINEUP_GC_FREEZE=0`` (its start-up heap left to the collector's full passes, decision 0059),
to compare.

``--strangers`` runs the strangers' attacks instead (issue 38): ``--clients`` (50) anonymous clients,
each sending a fresh random token per attempt, first at ``/mcp/`` then as ``/ws/agent/`` hellos
(``--doors``), while ``--victims`` (4) other users' Agents call ``tools/list`` at ``/mcp/``, each
at its token's pace (their p50/p99 pooled, measured quiet first for as long as each attack:
``--seconds``, 30), and the Daphne's CPU is read from ``/proc`` (also per attempt, above the quiet
rate), and its ``lineup_rate_limit_refusals_total`` from its ``/metrics``. With ``--nginx`` (when
``/usr/sbin/nginx`` exists) every client goes through an nginx built from
docs/operations/nginx.conf's locations, on loopback, and Daphne trusts one proxy hop. Bounds (the
issue's): victim p99 <= 3x quiet, Daphne <= 25 % of a core. Each door's figures also list its slices'
p99s (``slices``): attack and the quiet one after it; with ``--watch-loop`` the Daphne serves
bench.loop_watch and each slice also lists its event-loop callbacks over 100 ms and its collector
passes (how many were full ones, how long they took, how many slow callbacks had one inside).

For each: the server's RSS growth (VmRSS of the Daphne process, from just before to the highest
seen during and right after), the victim's tool-call p99 during it, and what the doors answered.
Bounds (the issue's): RSS growth < 64 MB, victim p99 < 5x quiet, 0 work after disconnect. A
violation counts as an error at full size; at ``--small`` only the functional checks do (the CI
machine's timing is not a figure). The Daphne log is kept (``logs:``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import secrets
import socket
import subprocess
import threading
import time
from typing import Any

from bench import common
from bench.client import AgentConnection, tool_call_frame
from bench.common import LOOPBACK, Figure, Report, create_agents, percentile
from bench.nginx import NGINX, nginx_config
from tests.support.processes import free_port

RSS_BOUND_MB = 64
STRANGERS_P99_BOUND = 3.0
STRANGERS_CPU_BOUND = 0.25  # of one core
P99_RATIO_BOUND = 5.0
MCP_TASKS_VERSION = "2025-11-25"
LOOP_WATCH_PATH = "/bench/loop-watch/"  # bench.loop_watch.PATH, not imported: that imports lineup.asgi


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Victim:
    """Another user's Agent calling a tool again and again; its round trips, by wall-clock time."""

    def __init__(self, url: str, agent: common.BenchAgent) -> None:
        self.url, self.agent = url, agent
        self.samples: list[tuple[float, float]] = []  # (time, seconds)
        self.failures = 0
        self.pending_since: float | None = None
        self.stop = asyncio.Event()

    async def run(self) -> None:
        conversation_id = self.agent.conversation_ids[0]
        connection = await AgentConnection(self.url, self.agent.token).open()
        revision = await connection.inventory_revision(conversation_id)
        n = 0
        try:
            while not self.stop.is_set():
                n += 1
                frame = tool_call_frame(conversation_id, f"victim-{n}", "pomodoro.interrupt", {}, revision)
                self.pending_since = time.monotonic()
                try:
                    answer, seconds = await connection.request(frame, timeout=30)
                except TimeoutError:
                    self.failures += 1
                    continue
                finally:
                    self.pending_since = None
                if answer.get("type") not in ("tool.rejected", "tool.receipt"):
                    self.failures += 1
                self.samples.append((time.monotonic(), seconds))
                await asyncio.sleep(0.02)
        finally:
            await connection.close()

    def p99_between(self, start: float, end: float) -> float:
        """The p99 of the round trips that ended in the window; a call still waiting counts as long
        as it has waited (a starved victim completes few calls, and those few must not look fast)."""
        values = [s for t, s in self.samples if start <= t <= end]
        if self.pending_since is not None:
            values.append(end - self.pending_since)
        return percentile(values, 99) if values else end - start


async def _ws(url: str) -> Any:
    from websockets.asyncio.client import connect

    return await connect(url, compression=None, ping_interval=None, open_timeout=15, max_size=2**21)


async def drain(ws: Any, counts: dict[str, int]) -> None:
    from websockets.exceptions import ConnectionClosed

    try:
        async for raw in ws:
            frame = json.loads(raw)
            key = frame.get("code") or frame.get("type")
            counts[key] = counts.get(key, 0) + 1
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd else 1006
        counts[f"close {code}"] = counts.get(f"close {code}", 0) + 1


async def send_until(
    ws: Any, text: str, deadline: float, counts: dict[str, int], *, per_second: float | None = None
) -> None:
    from websockets.exceptions import ConnectionClosed

    started = time.monotonic()
    try:
        while time.monotonic() < deadline:
            await ws.send(text)
            counts["sent"] = counts.get("sent", 0) + 1
            if per_second is not None:  # paced: sleep until this frame's slot
                await asyncio.sleep(max(0.0, started + counts["sent"] / per_second - time.monotonic()))
            else:
                await asyncio.sleep(0)
    except ConnectionClosed:
        pass
    finally:
        await ws.close()


async def junk_before_hello(url: str, size: dict[str, Any], **_: Any) -> dict[str, Any]:
    counts: dict[str, int] = {}
    deadline = time.monotonic() + size["seconds"]
    junk = "x" * 60_000

    async def one() -> None:
        ws = await _ws(url)
        reader = asyncio.ensure_future(drain(ws, counts))
        await send_until(ws, junk, deadline, counts)
        await asyncio.wait([reader], timeout=5)

    await asyncio.gather(*(one() for _ in range(size["clients"])))
    return {"answers": counts, "ok": counts.get("close 4401", 0) == size["clients"]}


async def oversized(url: str, size: dict[str, Any], attacker: common.BenchAgent, **_: Any) -> dict[str, Any]:
    counts: dict[str, int] = {}
    ws = await _ws(url)
    await ws.send(json.dumps({"type": "hello", "token": attacker.token, "protocol": "lineup.agent.v1"}))
    json.loads(await ws.recv())
    reader = asyncio.ensure_future(drain(ws, counts))
    await send_until(ws, "y" * (64 * 1024 + 1), time.monotonic() + size["seconds"], counts)
    await asyncio.wait([reader], timeout=5)
    return {"answers": counts, "ok": counts.get("frame_too_large", 0) > 0}


async def flood(url: str, size: dict[str, Any], attacker: common.BenchAgent, **_: Any) -> dict[str, Any]:
    from interact.models import Message

    conversation_id = attacker.conversation_ids[0]
    counts: dict[str, int] = {}
    ws = await _ws(url)
    await ws.send(json.dumps({"type": "hello", "token": attacker.token, "protocol": "lineup.agent.v1"}))
    json.loads(await ws.recv())
    reader = asyncio.ensure_future(drain(ws, counts))
    frame = json.dumps({"type": "message.send", "conversation_id": conversation_id, "text": "flood"})
    # Twice the per-connection rate: fast enough to keep its queue full the whole time (the most
    # work it can leave behind), slow enough not to be closed for abuse before it leaves.
    await send_until(ws, frame, time.monotonic() + size["seconds"], counts, per_second=size["flood_rate"])
    left = time.monotonic()
    await asyncio.wait([reader], timeout=5)

    def messages() -> int:
        return Message.objects.filter(conversation_id=conversation_id).count()

    # One frame may be in a service call as the client leaves: its write is not work after the
    # disconnect. Everything written later is.
    await asyncio.sleep(1.0)
    at_disconnect = await asyncio.to_thread(messages)
    await asyncio.sleep(size["after"])
    later = await asyncio.to_thread(messages)
    return {
        "answers": counts,
        "handled": at_disconnect,
        "work_after_disconnect": later - at_disconnect,
        "seconds_after": round(time.monotonic() - left, 1),
        "ok": later == at_disconnect and counts.get("rate_limited", 0) > 0,
    }


async def storm(url: str, size: dict[str, Any], attacker: common.BenchAgent, **_: Any) -> dict[str, Any]:
    counts: dict[str, int] = {}
    open_sockets = []
    for _ in range(size["connections"]):
        ws = await _ws(url)
        await ws.send(json.dumps({"type": "hello", "token": attacker.token, "protocol": "lineup.agent.v1"}))
        answer = json.loads(await ws.recv())
        key = answer.get("code") or answer["type"]
        counts[key] = counts.get(key, 0) + 1
        if answer["type"] == "welcome":
            open_sockets.append(ws)
        else:
            await ws.close()
    await asyncio.sleep(size["seconds"])
    await asyncio.gather(*(ws.close() for ws in open_sockets))
    return {"answers": counts, "ok": counts.get("too_many_connections", 0) > 0}


def _mcp_attacker(url: str, token: str, body: dict[str, Any], seconds: float, parallel: int, out: Any) -> None:
    """``parallel`` clients posting ``body`` again and again, each as soon as it is answered; in a
    process of its own, so the victim's round trips are not timed on the attacker's event loop."""
    import httpx2

    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": MCP_TASKS_VERSION,
    }
    counts: dict[str, int] = {}

    async def attack() -> None:
        deadline = time.monotonic() + seconds
        async with httpx2.AsyncClient(timeout=60, limits=httpx2.Limits(max_connections=parallel)) as client:

            async def one() -> None:
                while time.monotonic() < deadline:
                    try:
                        response = await client.post(url, json=body, headers=headers)
                    except httpx2.HTTPError as error:  # e.g. a connection the server dropped
                        counts[type(error).__name__] = counts.get(type(error).__name__, 0) + 1
                        continue
                    counts[str(response.status_code)] = counts.get(str(response.status_code), 0) + 1

            # Held requests are cut when the time is up: the client leaves with them unanswered.
            await asyncio.wait_for(asyncio.gather(*(one() for _ in range(parallel))), timeout=seconds + 0.5)

    with contextlib.suppress(TimeoutError):
        asyncio.run(attack())
    out.put(counts)


async def _attack_from_elsewhere(url: str, token: str, body: dict[str, Any], seconds: float, parallel: int) -> dict:
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    process = context.Process(target=_mcp_attacker, args=(url, token, body, seconds, parallel, out), daemon=True)
    process.start()
    counts = await asyncio.to_thread(out.get, True, seconds + 60)
    await asyncio.to_thread(process.join, 10)
    return counts


async def mcp_parallel(port: int, size: dict[str, Any], attacker: common.BenchAgent, **_: Any) -> dict[str, Any]:
    url = f"http://{LOOPBACK}:{port}/mcp/{attacker.conversation_ids[0]}/"
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    counts = await _attack_from_elsewhere(url, attacker.token, body, size["seconds"], size["parallel"])
    return {"answers": counts, "ok": counts.get("429", 0) > 0 and counts.get("200", 0) > 0}


async def mcp_held(port: int, size: dict[str, Any], attacker: common.BenchAgent, **_: Any) -> dict[str, Any]:
    """Parallel ``tasks/result`` on one long task: each is held until the focus ends (it does not)."""
    import httpx2

    url = f"http://{LOOPBACK}:{port}/mcp/{attacker.conversation_ids[1]}/"
    start = {
        "jsonrpc": "2.0",
        "id": "start",
        "method": "tools/call",
        "params": {"name": "pomodoro.start", "arguments": {"duration_seconds": 1500}, "task": {}},
    }
    headers = {
        "Authorization": f"Bearer {attacker.token}",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": MCP_TASKS_VERSION,
    }
    async with httpx2.AsyncClient(timeout=30) as client:
        answer = (await client.post(url, json=start, headers=headers)).json()
    task_id = answer["result"]["task"]["taskId"]
    body = {"jsonrpc": "2.0", "id": "held", "method": "tasks/result", "params": {"taskId": task_id}}
    counts = await _attack_from_elsewhere(url, attacker.token, body, size["seconds"], size["parallel"])
    return {"answers": counts, "ok": counts.get("429", 0) > 0 and counts.get("200", 0) == 0}


def _huge_post(port: int, results: list[str]) -> None:
    with socket.create_connection((LOOPBACK, port), timeout=30) as sock:
        sock.sendall(
            b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 314572800\r\n\r\n"
        )
        sent = 0
        chunk = b"x" * 65536
        try:
            while sent < 314572800:
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass
        try:
            answer = sock.recv(200)
        except OSError:
            answer = b""
        results.append(f"{answer[:12].decode(errors='replace')} after {sent // 1024} KiB")


async def huge_body(port: int, size: dict[str, Any], **_: Any) -> dict[str, Any]:
    results: list[str] = []
    threads = [threading.Thread(target=_huge_post, args=(port, results)) for _ in range(size["clients"])]
    for thread in threads:
        thread.start()
    await asyncio.to_thread(lambda: [t.join(60) for t in threads])
    return {
        "answers": results,
        "ok": all(r.startswith("HTTP/1.1 413") for r in results) and len(results) == len(threads),
    }


def _half_sent(port: int, count: int) -> list[socket.socket]:
    sockets = []
    for _ in range(count):
        sock = socket.create_connection((LOOPBACK, port), timeout=30)
        sock.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        sock.setblocking(False)
        sockets.append(sock)
    return sockets


async def slow_headers(port: int, size: dict[str, Any], **_: Any) -> dict[str, Any]:
    # Blocking connects, in a thread: the victim's calls run on this loop and must not wait on them.
    sockets = await asyncio.to_thread(_half_sent, port, size["half_sent"])
    started = time.monotonic()
    limit = float(size["header_timeout"]) + 5
    open_ones = set(range(len(sockets)))
    while open_ones and time.monotonic() - started < limit:
        for index in list(open_ones):
            try:
                if sockets[index].recv(1) == b"":
                    open_ones.discard(index)
            except BlockingIOError:
                pass
            except OSError:
                open_ones.discard(index)
        await asyncio.sleep(0.2)
    for sock in sockets:
        sock.close()
    return {
        "answers": {"dropped": len(sockets) - len(open_ones), "still_open": len(open_ones)},
        "dropped_within_s": round(time.monotonic() - started, 1),
        "ok": not open_ones,
    }


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the process so far (``/proc/<pid>/stat``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def refusals_by_door(port: int) -> dict[str, float]:
    """``lineup_rate_limit_refusals_total`` by door, read from the Daphne's own ``/metrics`` (loopback)."""
    import urllib.request

    with urllib.request.urlopen(f"http://{LOOPBACK}:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    counts: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("lineup_rate_limit_refusals_total{"):
            labels, value = line.rsplit(" ", 1)
            door = labels.split('door="', 1)[1].split('"', 1)[0]
            counts[door] = float(value)
    return counts


def _random_token() -> str:
    return "lu_" + secrets.token_urlsafe(32)


def _stranger_attacker(kind: str, url: str, clients: int, inbox: Any, out: Any) -> None:
    """``clients`` anonymous clients, each trying a fresh random token again and again (``kind``:
    ``mcp`` posts, ``ws`` hellos) during each of the windows it is sent once it is ready
    (``time.monotonic()`` bounds: the system's monotonic clock, shared with the process that set
    them); in a process of its own, like ``_mcp_attacker``."""
    import httpx2
    from websockets.asyncio.client import connect

    out.put("ready")
    windows: list[tuple[float, float]] = inbox.get(True, 60)

    counts: dict[str, int] = {}

    def count(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1

    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}

    async def attack() -> None:
        seconds = windows[-1][1] - time.monotonic()
        async with httpx2.AsyncClient(timeout=30, limits=httpx2.Limits(max_connections=clients)) as client:

            async def one_mcp(deadline: float) -> None:
                while time.monotonic() < deadline:
                    headers = {
                        "Authorization": f"Bearer {_random_token()}",
                        "Accept": "application/json, text/event-stream",
                    }
                    try:
                        response = await client.post(url, json=body, headers=headers)
                    except httpx2.HTTPError as error:
                        count(type(error).__name__)
                        continue
                    count(str(response.status_code))

            async def one_ws(deadline: float) -> None:
                while time.monotonic() < deadline:
                    try:
                        async with connect(url, compression=None, ping_interval=None, open_timeout=15) as ws:
                            await ws.send(
                                json.dumps({"type": "hello", "token": _random_token(), "protocol": "lineup.agent.v1"})
                            )
                            answer = json.loads(await ws.recv())
                            count(answer.get("code") or answer.get("type"))
                            with contextlib.suppress(Exception):
                                await ws.recv()  # until the server closes
                    except Exception as error:  # a refused or dropped connection is a figure too
                        count(type(error).__name__)

            one = one_mcp if kind == "mcp" else one_ws

            async def during_windows() -> None:
                for start, end in windows:
                    await asyncio.sleep(max(0.0, start - time.monotonic()))
                    await asyncio.gather(*(one(end) for _ in range(clients)))

            await asyncio.wait_for(during_windows(), timeout=seconds + 15)

    with contextlib.suppress(TimeoutError):
        asyncio.run(attack())
    out.put(counts)


class McpVictim:
    """Another user's Agent calling ``tools/list`` at ``/mcp/`` again and again; its round trips."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token
        self.samples: list[tuple[float, float]] = []
        self.failures = 0
        self.stop = asyncio.Event()

    async def run(self) -> None:
        import httpx2

        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json, text/event-stream"}
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        async with httpx2.AsyncClient(timeout=30) as client:
            while not self.stop.is_set():
                started = time.monotonic()
                try:
                    response = await client.post(self.url, json=body, headers=headers)
                    ok = response.status_code == 200
                except httpx2.HTTPError:
                    ok = False
                ended = time.monotonic()
                if not ok:
                    self.failures += 1
                self.samples.append((ended, ended - started))
                # Under its own token's pace (LINEUP_MCP_REQUESTS_PER_SECOND_PER_TOKEN, 5): faster,
                # its calls would wait their turn and the figure would be the pace, not the attack.
                await asyncio.sleep(0.25)

    def between(self, start: float, end: float) -> list[float]:
        return [seconds for t, seconds in self.samples if start <= t <= end]


def loop_watch(port: int) -> dict[str, Any]:
    """What the Daphne's event loop and collector did since the last call (``--watch-loop``: it
    serves bench.loop_watch, whose ``/bench/loop-watch/`` answers it), read on its own port."""
    import urllib.request

    with urllib.request.urlopen(f"http://{LOOPBACK}:{port}{LOOP_WATCH_PATH}", timeout=10) as response:
        return json.loads(response.read())


async def stranger_attacks(
    server: common.Server,
    victim_agents: list[common.BenchAgent],
    size: dict[str, Any],
    front: int,
    *,
    watch_loop: bool = False,
) -> dict:
    """Quiet, then each strangers' attack in turn, through ``front`` (nginx's port or Daphne's own).

    The victims are other users' Agents, each at its own token's pace: their calls are pooled, so
    a 30 s window's p99 is about its fifth slowest call of some 400, not the worst one or two of
    a hundred (one scheduling hiccup of a shared machine)."""
    victims = [
        McpVictim(f"http://{LOOPBACK}:{front}/mcp/{agent.conversation_ids[0]}/", agent.token) for agent in victim_agents
    ]
    mcp_url = victims[0].url
    running = [asyncio.ensure_future(victim.run()) for victim in victims]
    pid = server.process.pid
    while any(len(victim.samples) < 5 for victim in victims):  # warm: the SDK loads on first use
        await asyncio.sleep(0.1)
    results: dict[str, Any] = {}

    def window(windows: list[tuple[float, float]], cpu: float | None) -> dict[str, Any]:
        values = [seconds for victim in victims for start, end in windows for seconds in victim.between(start, end)]
        figures = {
            "victim_calls": len(values),
            "victim_p50_ms": round(percentile(values, 50) * 1000, 1) if values else None,
            "victim_p99_ms": round(percentile(values, 99) * 1000, 1) if values else None,
        }
        if cpu is not None:
            figures["daphne_cpu_of_a_core"] = round(cpu / sum(end - start for start, end in windows), 3)
        return figures

    # Quiet and attack interleaved, ``cycles`` slices of each per door, so that the other work of
    # a shared machine (which comes and goes by the minute) weighs on both alike; together each
    # is as long as the attack (``--seconds``). After each attack slice the refusals still held
    # (up to clients / REFUSALS_PER_SECOND s) are let out before the quiet slice is timed.
    from lineup.doors.strangers import REFUSALS_PER_SECOND

    cycles = size["cycles"]
    slice_seconds = size["seconds"] / cycles
    settle = max(2.0, size["clients"] / REFUSALS_PER_SECOND + 1.0)
    context = multiprocessing.get_context("spawn")
    urls = {"mcp": mcp_url, "ws": f"ws://{LOOPBACK}:{front}/ws/agent/"}
    quiet_windows: list[tuple[float, float]] = []
    for kind in size["doors"]:
        url = urls[kind]
        refused_before = await asyncio.to_thread(refusals_by_door, server.port)
        out, inbox = context.Queue(), context.Queue()
        process = context.Process(target=_stranger_attacker, args=(kind, url, size["clients"], inbox, out), daemon=True)
        process.start()
        if await asyncio.to_thread(out.get, True, 60) != "ready":
            raise common.BenchError("the strangers' process did not start")
        first = time.monotonic() + 0.5
        attack = [
            (first + i * (2 * slice_seconds + settle), first + i * (2 * slice_seconds + settle) + slice_seconds)
            for i in range(cycles)
        ]
        quiet = [(end + settle, end + settle + slice_seconds) for _, end in attack]
        inbox.put(attack)
        settling = [(end, end + settle) for _, end in attack]
        cpu: dict[str, float] = {"attack": 0.0, "settle": 0.0, "quiet": 0.0}
        loop_seen: dict[str, list[dict[str, Any]]] = {"attack": [], "settle": [], "quiet": []}
        for name, start, end in sorted(
            [("attack", *w) for w in attack] + [("settle", *w) for w in settling] + [("quiet", *w) for w in quiet],
            key=lambda item: item[1],
        ):
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            before = cpu_seconds(pid)
            if watch_loop:
                await asyncio.to_thread(loop_watch, server.port)  # starts the slice's count
            await asyncio.sleep(max(0.0, end - time.monotonic()))
            cpu[name] += cpu_seconds(pid) - before
            if watch_loop:
                loop_seen[name].append(await asyncio.to_thread(loop_watch, server.port))
        counts = await asyncio.to_thread(out.get, True, 60)
        await asyncio.to_thread(process.join, 10)
        quiet_windows += quiet
        quiet_figures = window(quiet, cpu["quiet"])
        figures = window(attack, cpu["attack"])
        refused_after = await asyncio.to_thread(refusals_by_door, server.port)
        figures["refusals_counted"] = {
            door: int(count - refused_before.get(door, 0))
            for door, count in refused_after.items()
            if count > refused_before.get(door, 0)
        }
        figures["answers"] = counts
        attempts = sum(counts.values())
        figures["attempts_per_second"] = round(attempts / size["seconds"], 1)
        # What one attempt costs Daphne above the quiet rate (the victims' calls), in CPU-ms: less
        # noisy on a shared machine than the victims' p99. The refusals answered after a slice
        # ended (they are held up to ``settle``) are the attempts' cost too.
        quiet_rate = cpu["quiet"] / size["seconds"]
        above_quiet = cpu["attack"] + cpu["settle"] - quiet_rate * (size["seconds"] + cycles * settle)
        figures["daphne_cpu_ms_per_attempt"] = round(above_quiet * 1000 / attempts, 2) if attempts else None
        figures["quiet"] = quiet_figures
        # Slice by slice: a tail that is one slice's (a collector pass, another job of the machine)
        # tells itself apart from one the attack keeps up.
        figures["slices"] = [
            {
                "attack_p99_ms": window([attack_slice], None)["victim_p99_ms"],
                "quiet_p99_ms": window([quiet_slice], None)["victim_p99_ms"],
                "attack_calls": window([attack_slice], None)["victim_calls"],
            }
            for attack_slice, quiet_slice in zip(attack, quiet, strict=True)
        ]
        if watch_loop:  # the Daphne's event loop and collector, slice by slice (bench.loop_watch)
            for n, one in enumerate(figures["slices"]):
                one["attack_loop"], one["quiet_loop"] = loop_seen["attack"][n], loop_seen["quiet"][n]
        quiet_p99 = quiet_figures["victim_p99_ms"]
        figures["victim_p99_ratio"] = round(figures["victim_p99_ms"] / quiet_p99, 2) if quiet_p99 else None
        results[f"random_tokens_{kind}"] = figures
        print(f"random_tokens_{kind}: {json.dumps(figures)}", flush=True)
    results["quiet"] = window(quiet_windows, None)
    for victim in victims:
        victim.stop.set()
    await asyncio.gather(*running)
    results["victim_failures"] = sum(victim.failures for victim in victims)
    return results


def _wait_for_port(port: int, process: subprocess.Popen, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise common.BenchError(f"nginx exited with {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection((LOOPBACK, port), timeout=1):
            return
        time.sleep(0.05)
    raise common.BenchError(f"nginx did not listen on {port} within {timeout} s")


def gc_freeze_env(args: argparse.Namespace) -> dict[str, str]:
    """The Daphne's environment for ``--no-gc-freeze``: its start-up heap left to the collector's
    full passes (lineup/heap.py), to compare with the shipped default."""
    return {"LINEUP_GC_FREEZE": "0"} if args.no_gc_freeze else {}


def strangers_main(args: argparse.Namespace) -> Report:
    doors = [door for door in args.doors.split(",") if door]
    if not doors or set(doors) - {"mcp", "ws"}:
        raise common.BenchError(f"--doors is mcp, ws or both (mcp,ws), not {args.doors!r}")
    size = {
        "seconds": args.seconds or (3 if args.small else 30),
        "clients": args.clients,
        "victims": args.victims,
        "cycles": args.cycles,
        "doors": doors,
    }
    common.prepare_database()
    common.empty_tables()
    agents = create_agents(args.victims, 1, prefix="strangers")
    via_nginx = args.nginx and os.path.exists(NGINX)
    with common.Rig("abuse-strangers") as rig:
        env = {"LINEUP_TRUSTED_PROXY_HOPS": "1"} if via_nginx else {}
        asgi = "bench.loop_watch:application" if args.watch_loop else "lineup.asgi:application"
        server = rig.daphne(asgi=asgi, **env, **gc_freeze_env(args))
        front, nginx = server.port, None
        if via_nginx:
            directory = str(rig.log_dir / "nginx")
            os.makedirs(directory, exist_ok=True)
            front = free_port()
            config = os.path.join(directory, "nginx.conf")
            with open(config, "w") as file:
                file.write(nginx_config(directory, front, server.port))
            nginx = subprocess.Popen([NGINX, "-c", config, "-p", directory, "-e", f"{directory}/nginx-error.log"])
            _wait_for_port(front, nginx)
        try:
            results = asyncio.run(
                asyncio.wait_for(
                    stranger_attacks(server, agents, size, front, watch_loop=args.watch_loop), timeout=args.max_seconds
                )
            )
        finally:
            if nginx is not None:
                nginx.terminate()
                nginx.wait(10)
        log_dir = str(rig.log_dir)
    quiet = results["quiet"]
    attacks = {name: results[name] for name in (f"random_tokens_{door}" for door in doors)}
    over = [
        name
        for name, r in attacks.items()
        if (r["victim_p99_ratio"] or 0) > STRANGERS_P99_BOUND or r["daphne_cpu_of_a_core"] > STRANGERS_CPU_BOUND
    ]
    worst = max(r["victim_p99_ms"] or 0 for r in attacks.values())
    functional = int("mcp" in doors and "401" not in attacks["random_tokens_mcp"]["answers"])
    functional += int("ws" in doors and "unauthorized" not in attacks["random_tokens_ws"]["answers"])
    return Report(
        bench="abuse-strangers",
        params={
            **size,
            "doors": ",".join(doors),
            "through": "nginx (docs/operations/nginx.conf)" if via_nginx else "Daphne directly",
            "gc_freeze": not args.no_gc_freeze,
            "watch_loop": args.watch_loop,
        },
        measured=Figure("other users' /mcp/ tools/list p99 under random-token strangers", worst, "ms"),
        baseline=Figure("their p99 in the quiet slices between", quiet["victim_p99_ms"] or 0, "ms"),
        ratio=max((r["victim_p99_ratio"] or 0.0) for r in attacks.values()),
        ratio_meaning=(
            f"each door's p99 / its interleaved quiet p99, the worst; bounds {STRANGERS_P99_BOUND:g}x "
            f"and Daphne <= {STRANGERS_CPU_BOUND:.0%} of a core"
        ),
        details={**results, "over_bounds": over},
        # At --small (CI) only what the doors answered counts; timing on a CI machine is no figure.
        errors=functional + results["victim_failures"] + (0 if args.small else len(over)),
        log_dir=log_dir,
    )


ATTACKS = {
    "junk_before_hello": junk_before_hello,
    "oversized": oversized,
    "flood": flood,
    "storm": storm,
    "mcp_parallel": mcp_parallel,
    "mcp_held": mcp_held,
    "huge_body": huge_body,
    "slow_headers": slow_headers,
}

FULL = {
    "seconds": 9,
    "clients": 6,
    "after": 10,
    "flood_rate": 400,
    "connections": 400,
    "parallel": 400,
    "half_sent": 2000,
}
SMALL = {"seconds": 2, "clients": 2, "after": 2, "flood_rate": 400, "connections": 40, "parallel": 40, "half_sent": 100}


async def attack_all(server: common.Server, agents: list[common.BenchAgent], size: dict[str, Any]) -> dict[str, Any]:
    victim = Victim(server.url(), agents[0])
    attacker = agents[1]
    pid = server.process.pid
    await mcp_parallel(
        port=server.port, size={**size, "seconds": 0.5, "parallel": 1}, attacker=agents[0]
    )  # warm: the SDK loads on first use
    running = asyncio.ensure_future(victim.run())
    await asyncio.sleep(size["seconds"])  # quiet
    quiet_start = time.monotonic()
    await asyncio.sleep(size["seconds"])
    quiet = victim.p99_between(quiet_start, time.monotonic())
    results: dict[str, Any] = {"quiet_p99_ms": round(quiet * 1000, 1)}
    for name, attack in ATTACKS.items():
        before = rss_mb(pid)
        peak = before
        sampling = asyncio.Event()

        async def sample(done: asyncio.Event = sampling) -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, rss_mb(pid))
                await asyncio.sleep(0.1)

        sampler = asyncio.ensure_future(sample())
        started = time.monotonic()
        outcome = await attack(url=server.url(), port=server.port, size=size, attacker=attacker, quiet=quiet)
        ended = time.monotonic()
        await asyncio.sleep(1.0)  # what the attack left behind
        sampling.set()
        await sampler
        p99 = victim.p99_between(started, ended + 1.0)
        outcome.update(
            rss_before_mb=round(before, 1),
            rss_growth_mb=round(peak - before, 1),
            victim_p99_ms=round(p99 * 1000, 1),
            victim_p99_ratio=round(p99 / quiet, 2) if quiet else None,
        )
        results[name] = outcome
        print(f"{name}: {json.dumps(outcome)}", flush=True)
    victim.stop.set()
    await running
    results["victim_failures"] = victim.failures
    return results


def main(args: argparse.Namespace) -> Report:
    size = dict(SMALL if args.small else FULL)
    size["seconds"] = args.seconds or size["seconds"]
    size["header_timeout"] = 3
    common.prepare_database()
    common.empty_tables()
    agents = create_agents(2, 2, prefix="abuse")
    with common.Rig("abuse") as rig:
        server = rig.daphne(LINEUP_HTTP_HEADER_TIMEOUT_SECONDS=str(size["header_timeout"]), **gc_freeze_env(args))
        results = asyncio.run(asyncio.wait_for(attack_all(server, agents, size), timeout=args.max_seconds))
        log_dir = str(rig.log_dir)
    attacks = {name: results[name] for name in ATTACKS}
    functional = [name for name, r in attacks.items() if not r["ok"]]
    over_rss = [name for name, r in attacks.items() if r["rss_growth_mb"] >= RSS_BOUND_MB]
    over_p99 = [
        name
        for name, r in attacks.items()
        if r["victim_p99_ratio"] is not None and r["victim_p99_ratio"] >= P99_RATIO_BOUND
    ]
    errors = len(functional) + results["victim_failures"]
    if not args.small:
        errors += len(over_rss) + len(over_p99)
    worst = max(r["victim_p99_ms"] for r in attacks.values())
    quiet = results["quiet_p99_ms"]
    return Report(
        bench="abuse",
        params={"size": "small" if args.small else "full", **size, "gc_freeze": not args.no_gc_freeze},
        measured=Figure("another user's tool-call p99 under the worst attack", worst, "ms"),
        baseline=Figure("its p99 when quiet", quiet, "ms"),
        ratio=worst / quiet if quiet else 0.0,
        ratio_meaning=f"worst attack / quiet; bound {P99_RATIO_BOUND:g}x",
        details={
            "attacks": attacks,
            "failed_checks": functional,
            "rss_over_64_mb": over_rss,
            "p99_over_5x": over_p99,
            "max_rss_growth_mb": max(r["rss_growth_mb"] for r in attacks.values()),
            "work_after_disconnect": attacks["flood"]["work_after_disconnect"],
        },
        errors=errors,
        log_dir=log_dir,
    )


if __name__ == "__main__":
    arguments = common.parser(__doc__.splitlines()[0])
    arguments.add_argument("--small", action="store_true", help="the CI size: fewer clients, 2 s attacks")
    arguments.add_argument(
        "--seconds",
        type=float,
        default=0,
        help="length of each attack, and of --strangers' quiet sample (default 9, --strangers 30; --small 2, 3)",
    )
    arguments.add_argument("--max-seconds", type=float, default=600, help="the whole run stops by itself after this")
    arguments.add_argument("--strangers", action="store_true", help="the random-token attacks on both doors only")
    arguments.add_argument("--clients", type=int, default=50, help="--strangers: anonymous clients (default 50)")
    arguments.add_argument("--nginx", action="store_true", help="--strangers: through nginx (docs/operations)")
    arguments.add_argument(
        "--doors", default="mcp,ws", help="--strangers: the doors attacked, in turn (default mcp,ws)"
    )
    arguments.add_argument(
        "--victims", type=int, default=4, help="--strangers: other users' Agents calling tools/list (default 4)"
    )
    arguments.add_argument(
        "--cycles", type=int, default=3, help="--strangers: quiet and attack slices per door, interleaved (default 3)"
    )
    arguments.add_argument(
        "--no-gc-freeze",
        action="store_true",
        help="Daphne with LINEUP_GC_FREEZE=0: its start-up heap not frozen (lineup/heap.py), for comparison",
    )
    arguments.add_argument(
        "--watch-loop",
        action="store_true",
        help="--strangers: Daphne serves bench.loop_watch; each slice lists its slow loop callbacks and GC passes",
    )
    parsed = arguments.parse_known_args()[0]
    raise SystemExit(common.run(strangers_main if parsed.strangers else main, arguments))
