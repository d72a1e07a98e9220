// The guest side (a View inside an MCP Apps host): the package's own self-contained build.
export { App, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-with-deps";
