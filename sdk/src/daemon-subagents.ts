/**
 * The daemon's subagent jobs (PROTOCOL §10.3, docs/subagents.md), passed through typed: every
 * call names the owning parent (`parent_agent_id`), and the daemon answers only for that
 * parent's own jobs and children. `create` returns once the job is committed, never after the
 * runs; `wait` blocks this connection only, and its timeout never cancels anything.
 */
import type {
  SubagentCreateCommand,
  SubagentRelaunchCommand,
  SubagentStatusCommand,
  SubagentSteerCommand,
  SubagentStopCommand,
  SubagentWaitCommand,
} from "../../src/types/subagent.ts";
import type { Outbound } from "./connection.ts";
import { checkedResult } from "./results.ts";

type Params<C> = C extends unknown ? Omit<C, "type" | "id"> : never;

export class DaemonSubagents {
  constructor(private readonly call: (command: Outbound) => Promise<unknown>) {}

  async create(params: Params<SubagentCreateCommand>) {
    return checkedResult("subagent.create", await this.call({ type: "subagent.create", ...params }));
  }

  async wait(params: Params<SubagentWaitCommand>) {
    return checkedResult("subagent.wait", await this.call({ type: "subagent.wait", ...params }));
  }

  async steer(params: Params<SubagentSteerCommand>) {
    return checkedResult("subagent.steer", await this.call({ type: "subagent.steer", ...params }));
  }

  async relaunch(params: Params<SubagentRelaunchCommand>) {
    return checkedResult("subagent.relaunch", await this.call({ type: "subagent.relaunch", ...params }));
  }

  async status(params: Params<SubagentStatusCommand>) {
    return checkedResult("subagent.status", await this.call({ type: "subagent.status", ...params }));
  }

  async stop(params: Params<SubagentStopCommand>) {
    return checkedResult("subagent.stop", await this.call({ type: "subagent.stop", ...params }));
  }
}
