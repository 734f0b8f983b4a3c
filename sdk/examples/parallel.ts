/**
 * Three agents in parallel, results collected: each gets its own task; a failure of one is
 * reported without losing the others.
 *   bun sdk/examples/parallel.ts
 */
import { spawnAgent } from "@shard-dev/sdk";

const tasks = [
  "List the TODO comments in src/.",
  "Which tests are slowest, judging by their names?",
  "Suggest one README improvement.",
];

const results = await Promise.allSettled(
  tasks.map(async (task) => {
    const agent = await spawnAgent({ cwd: process.cwd(), model: process.env.SHARD_MODEL });
    try {
      return await agent.run(task);
    } finally {
      await agent.close();
    }
  }),
);

results.forEach((result, i) => {
  const answer = result.status === "fulfilled" ? result.value.text : `failed: ${String(result.reason)}`;
  console.log(`[${i + 1}] ${tasks[i]}\n    ${answer}`);
});
