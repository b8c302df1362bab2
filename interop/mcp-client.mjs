// The stock TypeScript MCP client (@modelcontextprotocol/sdk) against Switchboard's /mcp, for the interop test
// (McpTypeScriptClientTest). Usage: node mcp-client.mjs <baseUrl> <agent 1.0> <agent 0.3> [apiKey]
// Prints one JSON object per line, one per step; waits for "register" on stdin before awaiting list_changed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import readline from "node:readline";

const [base, agent10, agent03, apiKey] = process.argv.slice(2);
const out = (o) => console.log(JSON.stringify(o));
const headers = apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
const client = new Client({ name: "switchboard-interop", version: "1.0.0" });
let listChanged = 0;
client.setNotificationHandler(ToolListChangedNotificationSchema, () => { listChanged++; });
const transport = new StreamableHTTPClientTransport(new URL(base + "/mcp"), { requestInit: { headers } });
await client.connect(transport);
out({ step: "initialized", server: client.getServerVersion()?.name, protocol: transport.protocolVersion ?? null });

const tools = await client.listTools();
out({ step: "tools", names: tools.tools.map((t) => t.name) });

const textOf = (r) => (r.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
for (const agent of [agent10, agent03]) {
  const r = await client.callTool({ name: "send_message", arguments: { agent, text: `hello ${agent}` } });
  out({ step: "send", agent, text: textOf(r), state: r.structuredContent?.state, isError: r.isError ?? false });
}

const progress = [];
const streamed = await client.callTool(
  { name: "send_message", arguments: { agent: agent10, text: "/stream 3 50\nstreamed through mcp" } },
  undefined, { onprogress: (p) => progress.push(p.message) });
out({ step: "progress", messages: progress, state: streamed.structuredContent?.state, text: textOf(streamed) });

const q = await client.callTool({ name: "send_message", arguments: { agent: agent10, text: "/ask Which colour?" } });
const a = await client.callTool({ name: "send_message", arguments: {
  agent: agent10, text: "blue", taskId: q.structuredContent.taskId, contextId: q.structuredContent.contextId } });
out({ step: "question", asked: textOf(q), askedState: q.structuredContent.state, answeredState: a.structuredContent?.state,
  sameTask: a.structuredContent?.taskId === q.structuredContent.taskId });

const abort = new AbortController();
const cancelled = client.callTool({ name: "send_message", arguments: { agent: agent10, text: "/slow 60000\nnever" } },
  undefined, { signal: abort.signal, timeout: 120000 });
setTimeout(() => abort.abort("the user cancelled"), 1500);
try {
  await cancelled;
  out({ step: "cancel", aborted: false });
} catch (e) {
  out({ step: "cancel", aborted: true, error: String(e?.message ?? e).slice(0, 200) });
}

const bad = await client.callTool({ name: "send_message", arguments: { agent: "nobody-here", text: "hi" } });
let unknownTool = null;
try {
  await client.callTool({ name: "no_such_tool", arguments: {} });
} catch (e) {
  unknownTool = String(e?.message ?? e);
}
out({ step: "errors", unknownAgent: textOf(bad), unknownAgentIsError: bad.isError ?? false, unknownTool });

out({ step: "ready-for-change" });
const rl = readline.createInterface({ input: process.stdin });
await new Promise((resolve) => rl.once("line", resolve));
const until = Date.now() + 20000;
while (listChanged === 0 && Date.now() < until) {
  await new Promise((r) => setTimeout(r, 50));
}
out({ step: "listChanged", count: listChanged });
rl.close();
await client.close();
process.exit(0);
