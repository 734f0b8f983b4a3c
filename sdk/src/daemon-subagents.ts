/**
 * The daemon's subagent jobs (docs/protocol.md, docs/subagents.md), passed through typed: every
 * call names the owning parent (`parent_agent_id`), and the daemon answers only for that
 * parent's own jobs and children. `create` returns once the job is committed, never after the
 * runs; `wait` blocks this connection only, and its timeout never cancels anything.
 */

import type { TypedCall } from "../../src/client/command-result.ts";
import type {
  SubagentCreateCommand,
  SubagentRelaunchCommand,
  SubagentStatusCommand,
  SubagentSteerCommand,
  SubagentStopCommand,
  SubagentWaitCommand,
} from "../../src/types/subagent.ts";

type Params<C> = C extends unknown ? Omit<C, "type" | "id"> : never;

export class DaemonSubagents {
  constructor(private readonly call: TypedCall) {}

  async create(params: Params<SubagentCreateCommand>) {
    return this.call({ type: "subagent.create", ...params });
  }

  async wait(params: Params<SubagentWaitCommand>) {
    return this.call({ type: "subagent.wait", ...params });
  }

  async steer(params: Params<SubagentSteerCommand>) {
    return this.call({ type: "subagent.steer", ...params });
  }

  async relaunch(params: Params<SubagentRelaunchCommand>) {
    return this.call({ type: "subagent.relaunch", ...params });
  }

  async status(params: Params<SubagentStatusCommand>) {
    return this.call({ type: "subagent.status", ...params });
  }

  async stop(params: Params<SubagentStopCommand>) {
    return this.call({ type: "subagent.stop", ...params });
  }
}
