/**
 * `$SHARD_HOME/models.json`: user-defined providers (OpenAI-compatible servers, proxies).
 * Validated with TypeBox one provider and one model at a time, so one bad entry is reported
 * (file + JSON path + reason) and skipped while everything else still loads.
 */
import { readFileSync } from "node:fs";
import { KindGuard, type Static, type TSchema, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { ModelSpec, ProviderTimeouts } from "../contracts/provider.ts";
import { describeError } from "../support/describe-error.ts";
import { errorCode } from "../support/error-code.ts";
import { baseUrlProblem } from "./base-url.ts";

export interface CatalogError {
  file: string;
  /** JSON path of the offending field, e.g. `providers.local.models[0].context_window`. */
  field: string;
  /** What is wrong; for a model, also which model was left out (`local/qwen3:8b`). */
  reason: string;
  /** Wire id of a model that was declared but not loaded (so it is not synthesized either). */
  rejectedModel?: string;
}

const ApiSchema = Type.Union([
  Type.Literal("openai-completions"),
  Type.Literal("openai-responses"),
  Type.Literal("anthropic-messages"),
]);

const CostSchema = Type.Object({
  input: Type.Number({ minimum: 0 }),
  output: Type.Number({ minimum: 0 }),
  cache_read: Type.Optional(Type.Number({ minimum: 0 })),
  cache_write: Type.Optional(Type.Number({ minimum: 0 })),
});

const LevelSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  label: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
});

export const ModelsFileModelSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  context_window: Type.Integer({ minimum: 1 }),
  max_output: Type.Integer({ minimum: 1 }),
  reasoning: Type.Optional(Type.Boolean()),
  thinking: Type.Optional(Type.Union([Type.Literal("budget"), Type.Literal("adaptive")])),
  reasoning_levels: Type.Optional(Type.Array(LevelSchema)),
  cost: Type.Optional(CostSchema),
});

/** Seconds; 0 turns a timeout off. */
const TimeoutsSchema = Type.Object(
  {
    connect: Type.Optional(Type.Number({ minimum: 0 })),
    first_byte: Type.Optional(Type.Number({ minimum: 0 })),
    idle: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { additionalProperties: false },
);

export const ModelsFileProviderSchema = Type.Object({
  api: ApiSchema,
  base_url: Type.Optional(Type.String({ minLength: 1 })),
  timeouts: Type.Optional(TimeoutsSchema),
  api_key: Type.Optional(Type.String()),
  api_key_env: Type.Optional(Type.String({ minLength: 1 })),
  models: Type.Array(Type.Unknown()),
});

const FileSchema = Type.Object({ providers: Type.Record(Type.String(), Type.Unknown()) });

function fieldPath(prefix: string, pointer: string): string {
  let out = prefix;
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

function reasonFor(schema: TSchema, message: string, value: unknown): string {
  if (value === undefined) return "missing required field";
  if (KindGuard.IsUnion(schema)) {
    const options = schema.anyOf.map((s) => s.const).filter((c) => typeof c === "string");
    if (options.length > 0) return `must be one of ${options.join(", ")} (got ${JSON.stringify(value)})`;
  }
  return `${message.toLowerCase()} (got ${JSON.stringify(value)})`;
}

/** One error per offending path (TypeBox reports e.g. "required" and "expected number" for the same path). */
function validate(schema: TSchema, value: unknown, file: string, prefix: string): CatalogError[] {
  const seen = new Map<string, CatalogError>();
  for (const e of Value.Errors(schema, value)) {
    const field = fieldPath(prefix, e.path) || "(root)";
    if (!seen.has(field)) seen.set(field, { file, field, reason: reasonFor(e.schema, e.message, e.value) });
  }
  return [...seen.values()];
}

/** `value` as its schema's type when it passes, otherwise every field that fails (as `validate`). */
function checked<S extends TSchema>(
  schema: S,
  value: unknown,
  file: string,
  prefix: string,
): { value: Static<S>; errors: [] } | { value: undefined; errors: CatalogError[] } {
  if (Value.Check(schema, value)) return { value, errors: [] };
  return { value: undefined, errors: validate(schema, value, file, prefix) };
}

/** Names the model a field error belongs to, and says it was left out. */
function rejectedModelError(
  error: CatalogError,
  provider: string,
  raw: unknown,
  index: number,
): CatalogError {
  const id =
    typeof raw === "object" && raw !== null && "id" in raw && typeof raw.id === "string" && raw.id !== ""
      ? raw.id
      : undefined;
  const field = error.field.slice(error.field.lastIndexOf(".") + 1);
  const what = error.reason === "missing required field" ? `missing required field "${field}"` : error.reason;
  if (id === undefined)
    return { ...error, reason: `${what}; model #${index + 1} of provider ${provider} was not loaded` };
  const wireId = `${provider}/${id}`;
  return { ...error, reason: `${what}; model ${wireId} was not loaded`, rejectedModel: wireId };
}

function timeoutsFrom(
  raw: { connect?: number; first_byte?: number; idle?: number } | undefined,
): Partial<ProviderTimeouts> | undefined {
  if (!raw) return undefined;
  const out: Partial<ProviderTimeouts> = {};
  if (raw.connect !== undefined) out.connectMs = Math.round(raw.connect * 1000);
  if (raw.first_byte !== undefined) out.firstByteMs = Math.round(raw.first_byte * 1000);
  if (raw.idle !== undefined) out.idleMs = Math.round(raw.idle * 1000);
  return out;
}

export function loadModelsFile(file: string): { models: ModelSpec[]; errors: CatalogError[] } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if (errorCode(err) === "ENOENT") return { models: [], errors: [] };
    return {
      models: [],
      errors: [{ file, field: "(file)", reason: `cannot read: ${describeError(err)}` }],
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return {
      models: [],
      errors: [{ file, field: "(file)", reason: `invalid JSON: ${describeError(err)}` }],
    };
  }
  const top = checked(FileSchema, data, file, "");
  if (top.value === undefined) return { models: [], errors: top.errors };
  const errors: CatalogError[] = [];

  const models: ModelSpec[] = [];
  const providers = top.value.providers;
  for (const [name, rawProvider] of Object.entries(providers)) {
    const prefix = fieldPath("providers", `/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    if (name.includes("/") || name.length === 0) {
      errors.push({ file, field: prefix, reason: "provider name must be non-empty and contain no '/'" });
      continue;
    }
    const { value: provider, errors: providerErrors } = checked(
      ModelsFileProviderSchema,
      rawProvider,
      file,
      prefix,
    );
    if (provider === undefined) {
      errors.push(...providerErrors);
      continue;
    }
    const urlProblem = provider.base_url === undefined ? undefined : baseUrlProblem(provider.base_url);
    if (urlProblem !== undefined) {
      errors.push({
        file,
        field: `${prefix}.base_url`,
        reason: `${urlProblem}; provider ${name} was not loaded`,
      });
      continue;
    }
    const timeouts = timeoutsFrom(provider.timeouts);
    provider.models.forEach((rawModel, i) => {
      const { value: m, errors: modelErrors } = checked(
        ModelsFileModelSchema,
        rawModel,
        file,
        `${prefix}.models[${i}]`,
      );
      if (m === undefined) {
        errors.push(...modelErrors.map((e) => rejectedModelError(e, name, rawModel, i)));
        return;
      }
      const spec: ModelSpec = {
        id: `${name}/${m.id}`,
        provider: name,
        model: m.id,
        api: provider.api,
        context_window: m.context_window,
        max_output: m.max_output,
        reasoning: m.reasoning ?? (m.reasoning_levels?.length ?? 0) > 0,
      };
      // No price in models.json: the cost is unknown, never 0 (a free model says `cost: {input: 0, output: 0}`).
      if (m.cost) spec.cost = m.cost;
      if (provider.base_url) spec.base_url = provider.base_url;
      if (provider.api_key !== undefined) spec.api_key = provider.api_key;
      if (provider.api_key_env) spec.api_key_env = provider.api_key_env;
      if (timeouts) spec.timeouts = timeouts;
      if (m.thinking) spec.thinking = m.thinking;
      if (m.reasoning_levels?.length) spec.reasoning_levels = m.reasoning_levels;
      models.push(spec);
    });
  }
  return { models, errors };
}
