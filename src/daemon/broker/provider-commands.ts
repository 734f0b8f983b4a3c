/**
 * `provider.status` (docs/protocol-additions.md §12): whether agents this daemon starts would
 * find a model provider, judged on the environment and home the registry gives its runtimes.
 */
import { providerStatus } from "../../providers/provider-status.ts";
import type { BrokerContext } from "./broker-context.ts";
import { answer, type HandlersOf } from "./command-handlers.ts";

export function providerHandlers(ctx: BrokerContext): HandlersOf<"providers"> {
  return {
    "provider.status": async () => {
      const env = { ...ctx.registry.env, SHARD_HOME: ctx.registry.home };
      return answer(await providerStatus(ctx.registry.home, env));
    },
  };
}
