/**
 * Standalone mock LLM server for manual testing and out-of-process benchmarks:
 *   bun test/support/mock-llm/main.ts --port 8787 --script replies.json
 * The script is a JSON array of MockReply, served cyclically. Prints the URL on stdout.
 * Streams held at a `{ "hold": name }` step are released with `POST <url>/_mock/release/<name>`
 * (see server.ts).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startMockLlmServer } from "./server.ts";
import type { MockReply } from "./types.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { port: { type: "string" }, script: { type: "string" }, record: { type: "boolean" } },
});

let script: MockReply[] | undefined;
if (values.script) {
  const parsed: unknown = JSON.parse(readFileSync(values.script, "utf8"));
  if (!Array.isArray(parsed)) {
    console.error(`mock-llm: ${values.script} must contain a JSON array of replies`);
    process.exit(2);
  }
  script = parsed as MockReply[];
}

const server = await startMockLlmServer({
  port: values.port ? Number(values.port) : 0,
  ...(script ? { script } : {}),
  recordRequests: values.record ?? false,
});
console.log(`MOCK_LLM_URL=${server.url}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
