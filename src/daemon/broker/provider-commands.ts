/**
 * `provider.status` (docs/protocol-additions.md §12): whether agents this daemon starts would
 * find a model provider, judged on the environment and home the registry gives its runtimes.
 */
import { Type } from "@sinclair/typebox";
import { providerStatus } from "../../providers/provider-status.ts";
import { PROVIDER_COMMAND_SCHEMAS } from "../../types/catalog.ts";
import { okResponse } from "../../wire/response.ts";
import { schemaGuard } from "../../wire/validate.ts";
import type { BrokerContext } from "./broker-context.ts";
import type { DaemonClient } from "./daemon-client.ts";

type ProviderCommand = NonNullable<ReturnType<typeof asProviderCommand>>;

export const asProviderCommand = schemaGuard(() => Type.Union([...PROVIDER_COMMAND_SCHEMAS]));

export async function handleProviderCommand(
  ctx: BrokerContext,
  client: DaemonClient,
  command: ProviderCommand,
): Promise<void> {
  const env = { ...ctx.registry.env, SHARD_HOME: ctx.registry.home };
  client.send(okResponse(command, await providerStatus(ctx.registry.home, env)));
}
