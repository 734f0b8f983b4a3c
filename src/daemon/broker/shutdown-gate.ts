/**
 * What a stopping daemon still answers (docs/daemon.md, Stopping): reads, answers and
 * teardown pass; everything that starts or drives work is refused, so nothing outlives the
 * stop. Every command decides here (a new command does not compile until it does).
 */
import type { CommandType } from "../../types/command-table.ts";

export const PASSES_DURING_SHUTDOWN: Readonly<Record<CommandType, boolean>> = {
  prompt: false,
  steer: false,
  abort: true,
  set_mode: false,
  list_modes: true,
  list_models: true,
  set_model: false,
  list_reasoning_levels: true,
  set_reasoning_level: false,
  session_op: false,
  permission_response: true,
  ui_response: true,
  "agent.list": true,
  "agent.changes": true,
  "agent.create": false,
  "agent.attach": false,
  "agent.detach": true,
  "agent.terminate": true,
  "agent.kill": true,
  "agent.status": true,
  "daemon.shutdown": true,
  "workspace.create": false,
  "workspace.attach": false,
  "workspace.list": true,
  "workspace.status": true,
  "workspace.retire": false,
  "workspace.diff": true,
  "subagent.create": false,
  "subagent.wait": true,
  "subagent.steer": false,
  "subagent.relaunch": false,
  "subagent.status": true,
  "subagent.stop": true,
  "session.list": true,
  "session.activate": false,
  "auth.enroll": false,
  "auth.list": true,
  "auth.revoke": true,
  "provider.status": true,
};
