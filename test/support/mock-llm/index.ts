/** Entry point of the mock LLM test server. */
export { startMockLlmServer } from "./server.ts";
export type { MockLlmServer, MockLlmServerOptions, MockReply, MockRequest, MockStep } from "./types.ts";
