/**
 * One valid and one broken example per wire message, shared by the schema tests here and the
 * wire-level validator tests (src/wire/validate.ts).
 */
import { AGENT_COMMAND_FIXTURES } from "./fixtures/agent-commands.ts";
import { AGENT_EVENT_FIXTURES } from "./fixtures/agent-events.ts";
import type { MessageFixture } from "./fixtures/fixture.ts";
import { SUBAGENT_FIXTURES, WORKSPACE_FIXTURES } from "./fixtures/jobs-and-workspaces.ts";
import { ORCHESTRATOR_FIXTURES } from "./fixtures/orchestrator.ts";

export type { MessageFixture } from "./fixtures/fixture.ts";

export const MESSAGE_FIXTURES: MessageFixture[] = [
  ...AGENT_COMMAND_FIXTURES,
  ...AGENT_EVENT_FIXTURES,
  ...ORCHESTRATOR_FIXTURES,
  ...SUBAGENT_FIXTURES,
  ...WORKSPACE_FIXTURES,
];
