/**
 * Approve bash commands by a policy function: read-only commands from an allow-list run, anything
 * else is denied with a reason the model sees.
 *   bun sdk/examples/approve-bash.ts "run the tests and tell me what fails"
 */
import { type PermissionRequest, spawnAgent } from "@shard-dev/sdk";

const ALLOWED = new Set(["ls", "cat", "echo", "git", "bun", "grep", "wc"]);
const NEVER = /[;&|`$><]|\brm\b|\bgit\s+(push|reset|clean)\b/;

function policy(request: PermissionRequest): { decision: "allow" | "deny"; reason?: string } {
  if (request.tool_name !== "bash") return { decision: "deny", reason: "this script only approves bash" };
  const input = request.input;
  const command =
    typeof input === "object" && input !== null && "command" in input ? String(input.command) : "";
  const executable = command.trim().split(/\s+/)[0] ?? "";
  if (ALLOWED.has(executable) && !NEVER.test(command)) return { decision: "allow" };
  return { decision: "deny", reason: `not allowed by policy: ${command}` };
}

const agent = await spawnAgent({ cwd: process.cwd(), model: process.env.SHARD_MODEL });
agent.onPermission((request) => {
  const answer = policy(request);
  console.log(`${answer.decision}: ${JSON.stringify(request.input)}`);
  return answer;
});
try {
  const { text } = await agent.run(process.argv[2] ?? "Show me the git status.");
  console.log(text);
} finally {
  await agent.close();
}
