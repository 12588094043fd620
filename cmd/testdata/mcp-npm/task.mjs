// The realistic task through the official TypeScript SDK client over
// stdio: open a form, fill four fields, submit, read the result,
// snapshot, close. Usage: node task.mjs <cdp-skill binary> <form url>.
// Prints one JSON line: the calls made, the bytes of their results and
// what the page showed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, url] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: bin, args: ["mcp"], env: process.env, stderr: "inherit" });
const client = new Client({ name: "ts-task", version: "1" });
await client.connect(transport);

const calls = [];
async function tool(name, args) {
  const res = await client.callTool({ name, arguments: args });
  calls.push({ name, bytes: JSON.stringify(res).length, isError: !!res.isError });
  if (res.isError) throw new Error(`${name}: ${res.content[0].text}`);
  // structuredContent is the envelope (status, tab); the answer is the text.
  return { ...JSON.parse(res.content[0].text), ...res.structuredContent };
}

const { tools } = await client.listTools();
const opened = await tool("tabs", { action: "open", url });
const tab = opened.tab;
const fill = (label, value) => ({ fill: { label, value } });
const acted = await tool("interact", {
  tab,
  steps: [fill("First name", "Ada"), fill("Last name", "Lovelace"), fill("Email", "ada@example.com"), fill("City", "London"), { click: { text: "Submit" } }],
});
const read = await tool("observe", { tab, steps: [{ query: "#result" }, { snapshot: true }] });
await tool("tabs", { action: "close", tab });
await client.close();
console.log(JSON.stringify({
  tools: tools.map((t) => t.name),
  calls,
  changes: acted.changes && acted.changes.summary,
  snapshot: read.steps[1].output.yaml,
}));
