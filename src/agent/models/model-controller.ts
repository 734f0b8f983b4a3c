/**
 * Model selection for one session. A `set_model` only records the selection; the turn
 * loop asks for the provider at each provider-call boundary, so a switch never interrupts
 * a stream (docs/protocol.md §10.1, effective: "next_provider_call").
 */
import type { ModelSpec, Provider } from "../../contracts/provider.ts";
import { createProvider, providerProblem } from "../../providers/create-provider.ts";
import type { ModelDescriptor } from "../../types/controls.ts";
import { type Failure, failure } from "../../wire/errors.ts";

export interface ProviderOptions {
  retryBaseMs?: number;
  maxAttempts?: number;
}

type Env = Record<string, string | undefined>;

export function describeModel(spec: ModelSpec): ModelDescriptor {
  return { id: spec.id, provider: spec.provider, model: spec.model, context_window: spec.context_window };
}

export class ModelController {
  private active: ModelSpec;
  private provider: { spec: ModelSpec; instance: Provider } | undefined;
  /** Reasoning effort per model id; defaults to the middle level of the catalog. */
  private readonly efforts = new Map<string, string>();

  constructor(
    private readonly catalog: ModelSpec[],
    /** The spec for `id`, or why there is none (said to the client as it is). */
    private readonly resolve: (id: string) => ModelSpec | string,
    initial: ModelSpec,
    private readonly env: Env,
    private readonly providerOptions: ProviderOptions = {},
  ) {
    this.active = initial;
  }

  get current(): ModelSpec {
    return this.active;
  }

  list(): ModelDescriptor[] {
    const all = this.catalog.some((m) => m.id === this.active.id)
      ? this.catalog
      : [...this.catalog, this.active];
    return all.map((spec) => {
      // Said up front, so a client can offer the models that work before a prompt fails.
      const unavailable = providerProblem(spec, this.env);
      return { ...describeModel(spec), ...(unavailable !== undefined ? { unavailable } : {}) };
    });
  }

  /** Validates that a provider can be built before accepting the selection. */
  select(id: string): { ok: true; previous: ModelSpec; changed: boolean } | Failure {
    const spec = this.resolve(id);
    if (typeof spec === "string") return failure("NOT_FOUND", spec);
    const built = createProvider(spec, this.env, this.providerOptions);
    if (!built.ok) return failure("NOT_FOUND", built.message);
    const previous = this.active;
    this.active = spec;
    this.provider = { spec, instance: built.provider };
    return { ok: true, previous, changed: previous.id !== spec.id };
  }

  /** Called at a provider-call boundary only. */
  providerForNextCall(): { ok: true; provider: Provider; spec: ModelSpec } | Failure {
    if (this.provider?.spec.id === this.active.id) {
      return { ok: true, provider: this.provider.instance, spec: this.active };
    }
    const built = createProvider(this.active, this.env, this.providerOptions);
    if (!built.ok) return failure("PROVIDER_ERROR", built.message);
    this.provider = { spec: this.active, instance: built.provider };
    return { ok: true, provider: built.provider, spec: this.active };
  }

  /** A turn is starting: the provider of its first call gets ready while the turn sets up. */
  prepare(): void {
    const selected = this.providerForNextCall();
    if (selected.ok) selected.provider.prepare?.();
  }

  levels(): { id: string; label: string; description?: string }[] {
    return this.active.reasoning ? (this.active.reasoning_levels ?? []) : [];
  }

  effort(): string | undefined {
    const levels = this.levels();
    if (levels.length === 0) return undefined;
    const chosen = this.efforts.get(this.active.id);
    if (chosen && levels.some((l) => l.id === chosen)) return chosen;
    return (levels.find((l) => l.id === "medium") ?? levels[Math.floor((levels.length - 1) / 2)])?.id;
  }

  setEffort(modelId: string, effort: string): void {
    this.efforts.set(modelId, effort);
  }

  capabilities(): string[] {
    return this.levels().length > 0 ? ["reasoning-catalog", "reasoning-switch"] : [];
  }
}
