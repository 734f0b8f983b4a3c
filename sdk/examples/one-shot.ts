/**
 * One-shot task: spawn an agent in this directory, run one task, print the answer.
 *   bun sdk/examples/one-shot.ts "fix the failing test"
 * The model comes from SHARD_MODEL (e.g. anthropic/claude-sonnet-5-5) or Shard's default.
 */
import { spawnAgent } from "@shard-dev/sdk";

const task = process.argv[2] ?? "Summarise what this project does in one sentence.";
const agent = await spawnAgent({ cwd: process.cwd(), model: process.env.SHARD_MODEL });
try {
  const { text, usage } = await agent.run(task);
  console.log(text);
  console.log(`(${usage.input} tokens in, ${usage.output} out)`);
} finally {
  await agent.close();
}
