/**
 * The sandbox an agent whose runtime is not running would get (`agent.list` shows it, and a
 * child is clamped against it): its manifest's choices, completed the way its runtime completes
 * them — the same settings and the same `AgentSandbox.open` over the daemon's environment,
 * `$SHARD_HOME/config.json`, the defaults and this machine's bubblewrap. A runtime that runs
 * reports its own state instead.
 */
import { AgentSandbox } from "../../sandbox/agent-sandbox.ts";
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
  const probe = probeBubblewrap(env, home);
  const opened = AgentSandbox.open({ settings, cwd: manifest.cwd, home, env, probe });
  if (opened.ok) return opened.sandbox.state();
  // A chosen mode this machine cannot give: its runtime refuses to start, saying why.
  return {
    mode: settings.mode,
    policy: settings.policy,
    mechanism: "bubblewrap",
    network_allow: settings.networkAllow,
    ...(probe.ok ? {} : { unavailable: probe.reason }),
  };
}
