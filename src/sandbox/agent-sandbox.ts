/**
 * One runtime's sandbox (docs/sandbox.md): the mode its commands run in, how a command is
 * wrapped to run there, and the same boundary for the file tools. The runtime owns it; `bash`
 * and the file tools see it through `CommandSandbox` and `PathBoundary`.
 */
import { existsSync, rmSync } from "node:fs";
import { isInside } from "../permissions/paths.ts";
import type { SandboxMode, SandboxPolicy, SandboxState } from "../types/sandbox.ts";
import { type Failure, failure } from "../wire/errors.ts";
import { type BubblewrapProbe, probeBubblewrap } from "./bubblewrap-probe.ts";
import { bwrapArgv } from "./bwrap-argv.ts";
import { confinedEnv } from "./confined-env.ts";
import { bridgedCommand, findSocat, PROXY_ENV_NAMES, proxyEnv, withNetworkNotice } from "./network-bridge.ts";
import { NetworkProxy } from "./network-proxy.ts";
import { makePrivateTmpdir } from "./private-tmpdir.ts";
import {
  hiddenBelow,
  isHiddenIn,
  type SandboxProfile,
  sandboxProfile,
  writableIn,
} from "./sandbox-profile.ts";
import type { SandboxSettings } from "./sandbox-settings.ts";

/** How `bash` runs a command: wrapped in the sandbox, or as it is when there is none. */
export interface CommandSandbox {
  /** Undefined when commands run unconfined (mode `off`). */
  wrap(argv: readonly string[]): { argv: string[]; env: Record<string, string> } | undefined;
  /** The mode a command runs in now; `off` when unconfined. */
  mode(): SandboxMode;
  policy(): SandboxPolicy;
}

/**
 * The hidden paths a recursive file tool must leave out of a search or listing at a root it may
 * read (a `secrets/` in sandbox.deny, or `$SHARD_HOME`, inside the working directory).
 */
export interface HiddenPaths {
  /** Real paths strictly below `realRoot` that stay hidden; empty with the sandbox off. */
  hiddenBelow(realRoot: string): string[];
}

/** What the file tools may touch with the sandbox on; a refusal is the message the model reads. */
export interface PathBoundary extends HiddenPaths {
  writeRefusal(realPath: string): string | undefined;
  readRefusal(realPath: string): string | undefined;
}

export interface AgentSandboxInput {
  settings: SandboxSettings;
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  /** Injected by tests that stand for a machine without bubblewrap. */
  probe?: BubblewrapProbe;
}

export class AgentSandbox implements CommandSandbox, PathBoundary {
  private current: SandboxMode;
  private tmpdir: string | undefined;
  private readonly bwrap: string | undefined;
  /** Set when hosts are allowed and `socat` is there to bridge to the proxy. */
  private readonly socat: string | undefined;
  /** Started at the first confined command that may use the network; lives until close(). */
  private proxy: NetworkProxy | undefined;
  /** Proxies started so far: a replacement gets its own socket path, out of reach of the old one's unlink. */
  private proxiesStarted = 0;
  /** Why confined commands have no network although hosts are allowed. */
  private noNetwork: string | undefined;

  private constructor(
    private readonly input: AgentSandboxInput,
    mode: SandboxMode,
    private readonly unavailable: string | undefined,
  ) {
    this.current = mode;
    this.bwrap = input.probe?.ok === true ? input.probe.path : undefined;
    const hosts = input.settings.networkAllow;
    this.socat = hosts.length > 0 ? findSocat(input.env) : undefined;
    if (hosts.length > 0 && this.socat === undefined)
      this.noNetwork =
        `sandbox.network.allow lists ${hosts.join(", ")}, but socat is not installed, so confined ` +
        "commands have no network; on Debian or Ubuntu: apt install socat (docs/sandbox.md#network)";
  }

  /**
   * The sandbox the settings ask for. A mode somebody chose that this machine cannot give is
   * refused; the default falls back to `off` and says why in `state().unavailable` (and the
   * runtime warns at start), so it never runs unconfined silently.
   */
  static open(input: AgentSandboxInput): { ok: true; sandbox: AgentSandbox } | Failure {
    const wanted = input.settings.mode;
    if (wanted === "off") return { ok: true, sandbox: new AgentSandbox(input, "off", undefined) };
    const probe = input.probe ?? probeBubblewrap(input.env, input.home);
    const probed = { ...input, probe };
    if (probe.ok) return { ok: true, sandbox: new AgentSandbox(probed, wanted, undefined) };
    if (input.settings.modeChosen) {
      return failure(
        "INVALID_REQUEST",
        `sandbox "${wanted}" is not available on this machine: ${probe.reason}. ` +
          "Install bubblewrap, or choose --sandbox off to run commands unconfined.",
      );
    }
    return { ok: true, sandbox: new AgentSandbox(probed, "off", probe.reason) };
  }

  mode(): SandboxMode {
    return this.current;
  }

  policy(): SandboxPolicy {
    return this.input.settings.policy;
  }

  /** A stricter mode applies at once; a looser one only after the person allowed it (the runtime asks). */
  setMode(mode: SandboxMode): { ok: true } | Failure {
    if (mode !== "off" && this.bwrap === undefined) {
      return failure(
        "INVALID_REQUEST",
        `sandbox "${mode}" is not available on this machine: ${this.unavailable ?? "no bubblewrap"}`,
      );
    }
    this.current = mode;
    return { ok: true };
  }

  /** What the runtime should warn about at start (besides `state().unavailable`). */
  startWarnings(): string[] {
    return this.bwrap !== undefined && this.noNetwork !== undefined ? [this.noNetwork] : [];
  }

  state(): SandboxState {
    const settings = this.input.settings;
    return {
      mode: this.current,
      ...(this.unavailable !== undefined && settings.mode !== this.current
        ? { requested: settings.mode }
        : {}),
      policy: settings.policy,
      mechanism: this.current === "off" ? "none" : "bubblewrap",
      network_allow: [...settings.networkAllow],
      ...(this.unavailable !== undefined ? { unavailable: this.unavailable } : {}),
    };
  }

  wrap(argv: readonly string[]): { argv: string[]; env: Record<string, string> } | undefined {
    const profile = this.profile();
    if (profile === undefined || this.bwrap === undefined) return undefined;
    const env = confinedEnv(this.input.env, { TMPDIR: profile.tmpdir });
    for (const name of PROXY_ENV_NAMES) delete env[name];
    if (this.input.settings.networkAllow.length === 0)
      return { argv: bwrapArgv(this.bwrap, profile, argv), env };
    const proxy = this.startProxy(profile.tmpdir);
    if (proxy === undefined || this.socat === undefined)
      return {
        argv: bwrapArgv(this.bwrap, profile, withNetworkNotice(this.noNetwork ?? "no network", argv)),
        env,
      };
    return {
      argv: bwrapArgv(
        this.bwrap,
        { ...profile, proxySocket: proxy.socketPath },
        bridgedCommand(this.socat, argv),
      ),
      env: { ...env, ...proxyEnv() },
    };
  }

  writeRefusal(realPath: string): string | undefined {
    const profile = this.profile(realPath);
    if (profile === undefined || writableIn(profile, realPath)) return undefined;
    if (isHiddenIn(profile, realPath)) return this.hiddenMessage(realPath);
    const where =
      profile.mode === "read-only"
        ? "nothing is writable in read-only mode"
        : `only ${profile.cwd} is writable${isInside(profile.cwd, realPath) ? " (git hooks and config excepted)" : ""}`;
    return `The sandbox (${profile.mode}) refuses to write ${realPath}: ${where}. Ask the user to change the sandbox mode if this write is needed.`;
  }

  readRefusal(realPath: string): string | undefined {
    const profile = this.profile(realPath);
    if (profile === undefined || !isHiddenIn(profile, realPath)) return undefined;
    return this.hiddenMessage(realPath);
  }

  hiddenBelow(realRoot: string): string[] {
    const profile = this.profile(realRoot);
    return profile === undefined ? [] : hiddenBelow(profile, realRoot);
  }

  /** Removes the private TMPDIR; the runtime calls it on the way out. */
  close(): void {
    this.proxy?.close();
    this.proxy = undefined;
    if (this.tmpdir !== undefined) rmSync(this.tmpdir, { recursive: true, force: true });
    this.tmpdir = undefined;
  }

  /**
   * The filtering proxy, listening on a socket next to the private TMPDIR: inside the hidden
   * `$SHARD_HOME`, outside every writable root, so a command reaches it only where it is bound.
   */
  private startProxy(tmpdir: string): NetworkProxy | undefined {
    if (this.socat === undefined) return undefined;
    if (
      this.proxy !== undefined &&
      (this.proxy.failure() !== undefined || !existsSync(this.proxy.socketPath))
    ) {
      // It stopped listening, or its socket was removed (bwrap would refuse a missing mount
      // source and every command would fail): a fresh one takes over.
      this.proxy.close();
      this.proxy = undefined;
    }
    if (this.proxy !== undefined) return this.proxy;
    const generation = this.proxiesStarted === 0 ? "" : `-${this.proxiesStarted}`;
    this.proxiesStarted += 1;
    const listened = NetworkProxy.listen(
      `${tmpdir}.proxy${generation}.sock`,
      this.input.settings.networkAllow,
    );
    if (!listened.ok) {
      this.noNetwork = `${listened.error.message}, so this command has no network`;
      return undefined;
    }
    this.proxy = listened.proxy;
    return this.proxy;
  }

  private hiddenMessage(realPath: string): string {
    return `The sandbox (${this.current}) keeps ${realPath} from the agent: it is on the deny list (secrets, $SHARD_HOME, sandbox.deny).`;
  }

  /**
   * Built afresh for each question (a socket or a denied path may appear at any time). `about`:
   * the one real path a file tool's question is about, so only what can bear on it is looked up.
   */
  private profile(about?: string): SandboxProfile | undefined {
    if (this.current === "off") return undefined;
    this.tmpdir ??= makePrivateTmpdir(this.input.home);
    return sandboxProfile({
      mode: this.current,
      cwd: this.input.cwd,
      home: this.input.home,
      tmpdir: this.tmpdir,
      deny: this.input.settings.deny,
      ...(about !== undefined ? { about } : {}),
    });
  }
}
