"""Ready-to-paste configurations for connecting an Agent, as the Agents page shows them.

Pure text: given a conversation's MCP URL, the ``/ws/agent/`` URL and a token (the one just
created, shown once, or a placeholder), each usual client's configuration. The wording around
them is the page's (translated); the configurations themselves are code and never translated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlsplit

from runtime.wire import encode

TOKEN_PLACEHOLDER = "lu_YOUR_TOKEN"
AGENT_PROTOCOL = "lineup.agent.v1"  # docs/agent-protocol.md
SERVER_NAME = "lineup"  # the name clients list the server under


@dataclass(frozen=True)
class ClientConfiguration:
    key: str  # stable, for the page's ids and the tests
    language: str  # what the text is: json, shell, python
    text: str


def _needs_allow_http(url: str) -> bool:
    # mcp-remote refuses plain http except to localhost unless told otherwise.
    parts = urlsplit(url)
    return parts.scheme == "http" and parts.hostname not in {"localhost", "127.0.0.1", "::1"}


def mcp_configurations(*, mcp_url: str, token: str | None) -> list[ClientConfiguration]:
    """The MCP endpoint ``mcp_url`` for Claude Desktop (mcp-remote), Claude Code, any streamable HTTP
    client's JSON and the official Python SDK, with ``token`` (or a placeholder) in the header."""
    token = token or TOKEN_PLACEHOLDER
    bridge_args = ["-y", "mcp-remote", mcp_url, "--header", "Authorization:${LINEUP_AUTH}"]
    if _needs_allow_http(mcp_url):
        bridge_args.append("--allow-http")
    mcp_remote = {
        "mcpServers": {SERVER_NAME: {"command": "npx", "args": bridge_args, "env": {"LINEUP_AUTH": f"Bearer {token}"}}}
    }
    streamable = {"url": mcp_url, "headers": {"Authorization": f"Bearer {token}"}}
    python = f"""import asyncio

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

URL = {json.dumps(mcp_url)}
TOKEN = {json.dumps(token)}


async def main() -> None:
    async with (
        create_mcp_http_client(headers={{"Authorization": f"Bearer {{TOKEN}}"}}) as http,
        streamable_http_client(URL, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        tools = await session.list_tools()
        print(sorted(tool.name for tool in tools.tools))


asyncio.run(main())
"""
    return [
        ClientConfiguration("mcp-remote", "json", json.dumps(mcp_remote, indent=2)),
        ClientConfiguration(
            "claude-code",
            "shell",
            f'claude mcp add --transport http {SERVER_NAME} {mcp_url} --header "Authorization: Bearer {token}"',
        ),
        ClientConfiguration("streamable-http", "json", json.dumps(streamable, indent=2)),
        ClientConfiguration("python-sdk", "python", python),
    ]


def agent_socket_hello(*, token: str | None) -> str:
    """The first frame an Agent sends on ``/ws/agent/`` (docs/agent-protocol.md)."""
    return encode({"type": "hello", "protocol": AGENT_PROTOCOL, "token": token or TOKEN_PLACEHOLDER})
