/**
 * The sandbox an agent whose runtime is not running would get (`agent.list` shows it, and a
 * child is clamped against it): its manifest's choices, completed the way its runtime would
 * complete them — the daemon's environment, `$SHARD_HOME/config.json`, the defaults, and
 * whether this machine has bubblewrap. A runtime that runs reports its own state instead.
 */
import { probeBubblewrap } from "../../sandbox/bubblewrap-probe.ts";
import { resolveSandboxSettings } from "../../sandbox/sandbox-settings.ts";
import type { SandboxState } from "../../types/sandbox.ts";
import type { AgentManifest } from "./manifest.ts";

export function askedSandbox(
  manifest: AgentManifest,
  env: Record<string, string | undefined>,
  home: string,
): SandboxState {
  const settings = resolveSandboxSettings(
    {
      ...(manifest.sandbox !== undefined ? { mode: manifest.sandbox } : {}),
      ...(manifest.sandbox_policy !== undefined ? { policy: manifest.sandbox_policy } : {}),
      ...(manifest.network_allow !== undefined ? { networkAllow: manifest.network_allow } : {}),
    },
    { ...env, SHARD_HOME: home },
    home,
  );
  const common = { policy: settings.policy, network_allow: settings.networkAllow };
  if (settings.mode === "off") return { mode: "off", mechanism: "none", ...common };
  const probe = probeBubblewrap(env);
  if (probe.ok) return { mode: settings.mode, mechanism: "bubblewrap", ...common };
  // Without bubblewrap a default falls back to `off`; a chosen mode refuses to start.
  return settings.modeChosen
    ? { mode: settings.mode, mechanism: "bubblewrap", ...common, unavailable: probe.reason }
    : { mode: "off", requested: settings.mode, mechanism: "none", ...common, unavailable: probe.reason };
}
