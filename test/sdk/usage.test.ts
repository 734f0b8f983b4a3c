/**
 * The SDK's view of cost (docs/usage.md): a turn result carries `usage.cost_usd` (null when a
 * call's model has no price), and `daemon.usage()` returns the daemon's ledger sums.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectDaemon } from "../../sdk/src/daemon-client.ts";
import { mockHome } from "../agent/support/agent-process.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true });
const startDaemon = useDaemonHarnesses(llm);

describe("cost in the SDK", () => {
  test("turn results carry usage.cost_usd, unknown as null; daemon.usage sums the ledger", async () => {
    const home = mockHome(llm().url, [{ id: "unpriced", context_window: 100_000, max_output: 4096 }]);
    const h = await startDaemon({ home });
    const daemon = await connectDaemon({ socketPath: h.socketPath });
    const priced = await daemon.createAgent({ cwd: h.cwd, model: "mock/chat", name: "priced" });
    llm().enqueue({ steps: [{ text: "paid" }], usage: { input: 2_000_000, output: 500_000 } });
    const paid = await priced.run("work");
    // $1 per million in, $2 per million out.
    expect(paid.usage.cost_usd).toBeCloseTo(3, 10);

    const unpriced = await daemon.createAgent({ cwd: h.cwd, model: "mock/unpriced" });
    llm().enqueue({ steps: [{ text: "free?" }], usage: { input: 1000, output: 10 } });
    const unknown = await unpriced.run("work");
    expect(unknown.usage.cost_usd).toBeNull();

    const usage = await daemon.usage({ since: "1h", by: "agent" });
    expect(usage.rows.find((r) => r.key === priced.id)).toMatchObject({ label: "priced", cost_usd: 3 });
    expect(usage.rows.find((r) => r.key === unpriced.id)).toMatchObject({
      cost_usd: null,
      unpriced_calls: 1,
    });
    expect(usage.total).toMatchObject({ calls: 2, unpriced_calls: 1 });
    daemon.close();
  });
});
