/** `daemon.usage` (protocol-additions §22): the cost ledger summed since a time, grouped one way. */
import { failure } from "../../wire/errors.ts";
import type { BrokerContext } from "../broker/broker-context.ts";
import { answer, type HandlersOf } from "../broker/command-handlers.ts";
import type { CostLedger } from "./cost-ledger.ts";
import { queryUsage, sinceMs } from "./usage-query.ts";
import type { UsageRecorder } from "./usage-recorder.ts";

export function usageHandlers(
  ctx: BrokerContext,
  ledger: CostLedger,
  recorder: UsageRecorder,
): HandlersOf<"usage"> {
  return {
    "daemon.usage": (_client, command) => {
      const since = sinceMs(command.since, Date.now());
      if (since === undefined)
        return failure("INVALID_REQUEST", 'daemon.usage: field "since": use 30m, 12h, 7d or epoch ms');
      const result = queryUsage(ledger, since, command.by ?? "agent", (agentId) => {
        const manifest = ctx.registry.get(agentId)?.manifest;
        return manifest?.name ?? manifest?.display_name;
      });
      const daily = recorder.dailyBudget();
      return answer(daily !== undefined ? { ...result, daily_budget: daily } : result);
    },
  };
}
