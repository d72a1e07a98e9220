// The host side, for the browser tests' test host: the official AppBridge and MCP client.
export { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
export { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
