// A SEP-2663 requester (@modelcontextprotocol/ext-tasks, pinned here) against a live LineUp /mcp/ at
// protocol 2026-07-28: one focus started as a task and driven to its result, another cancelled.
// Run by tests/lineup/gateways/mcp/test_interop.py: node interop.mjs <url> <token>; prints one JSON line.
import { resultFromTaskOutcome, withTasks } from "@modelcontextprotocol/ext-tasks/client";

const [url, token] = process.argv.slice(2);
const VERSION = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";
let nextId = 0;

// The port the package drives: one JSON-RPC request per HTTP POST, with 2026-07-28's per-request
// envelope and routing headers (LineUp's endpoint is stateless).
async function dispatch(request, options) {
  const params = { ...(request.params ?? {}) };
  params._meta = {
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } },
    "io.modelcontextprotocol/clientInfo": { name: "ext-tasks-interop", version: "0" },
    ...(params._meta ?? {}),
  };
  const body = { ...request, jsonrpc: "2.0", id: request.id ?? ++nextId, params };
  const name = params.name ?? params.taskId ?? params.uri;
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization: `Bearer ${token}`,
    "mcp-protocol-version": VERSION,
    "mcp-method": body.method,
    ...(name === undefined ? {} : { "mcp-name": String(name) }),
    // The package's own (it sends Mcp-Name: <taskId> on tasks/*), one spelling per header.
    ...Object.fromEntries(Object.entries(options?.context?.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
  };
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const answer = await response.json();
  return "error" in answer ? { kind: "error", error: answer.error } : { kind: "result", result: answer.result };
}

const discovered = await dispatch({ method: "server/discover" });
const port = {
  endpointId: url,
  taskCapabilities: { generation: "v2", capabilities: discovered.result.capabilities.extensions[TASKS] },
  dispatch,
  onServerRequest: () => () => {},
  onNotification: () => () => {},
  onInvalidated: () => () => {},
  invalidated: false,
};
const session = withTasks(port);
try {
  const focus = await session.callTool("pomodoro.start", { duration_seconds: 2 });
  const settled = await focus.settle();
  const result = resultFromTaskOutcome(settled.outcome);

  const other = await session.callTool("pomodoro.start", { duration_seconds: 600 });
  await other.cancel();
  const cancelled = await other.settle();
  console.log(
    JSON.stringify({
      kind: focus.kind,
      taskId: focus.handle?.taskId ?? null,
      status: settled.outcome.status,
      result: result.structuredContent ?? null,
      cancelledKind: other.kind,
      cancelledTaskId: other.handle?.taskId ?? null,
      cancelledStatus: cancelled.outcome.status,
    }),
  );
} finally {
  await session.close();
}
