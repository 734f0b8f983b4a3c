/**
 * Watch every agent on a daemon: attach to each as an observer (and to every new one), print
 * a line per status change and per finished turn.
 *   bun sdk/examples/watch-daemon.ts [--turns N]     (stops after N finished turns)
 * The daemon is the one of $SHARD_HOME (default ~/.shard).
 */
import { type Agent, connectDaemon } from "@shard-dev/sdk";

const limitAt = process.argv.indexOf("--turns");
const turnLimit = limitAt > 0 ? Number(process.argv[limitAt + 1]) : Number.POSITIVE_INFINITY;
let turns = 0;
const daemon = await connectDaemon();

async function watch(agent: Agent, label: string): Promise<void> {
  for await (const event of agent.events()) {
    if (event.type === "status") console.log(`${label}: ${event.status}`);
    if (event.type === "gap") console.log(`${label}: ${event.message}`);
    if (event.type === "turn_end") {
      const last = agent.state.live_window.messages.at(-1);
      const text = last?.content.map((b) => (b.type === "text" ? b.text : "")).join("") ?? "";
      console.log(`${label}: turn done: ${text.slice(0, 80)}`);
      if (++turns >= turnLimit) daemon.close();
    }
  }
}

async function attach(agentId: string, name: string | undefined): Promise<void> {
  const agent = await daemon.attach(agentId, { role: "observer" });
  console.log(`attached ${name ?? agentId}`);
  void watch(agent, name ?? agentId);
}

const events = daemon.events(); // subscribed before listing: no agent_spawned is missed
const agents = await daemon.listAgents();
await Promise.all(agents.map((info) => attach(info.agent_id, info.name)));
console.log(`watching ${agents.length} agents`);
for await (const event of events) {
  if (event.type === "agent_spawned") await attach(event.agent_id, event.info.name);
  if (event.type === "connection_lost") console.log(`daemon connection lost: ${event.reason}`);
}
